// Confirms a ban: the user is signed out, cannot sign in, and their sites go offline.
import type { AdminUser } from "../../../common/admin";
import { ADMIN_TEXT } from "../../../common/texts";
import { ConfirmDialog } from "../ui/ConfirmDialog";

/** `user` null: closed. The ban is applied at once in the list, so the dialog closes on confirm. */
export function BanUserDialog({ user, onConfirm, onClose }: { user: AdminUser | null; onConfirm: (user: AdminUser) => void; onClose: () => void }) {
  return (
    <ConfirmDialog
      open={user !== null}
      onOpenChange={(open) => !open && onClose()}
      title={ADMIN_TEXT.banTitle}
      description={
        <>
          <strong className="font-medium break-all text-foreground">{user?.email}</strong> {ADMIN_TEXT.banBody}
        </>
      }
      confirmLabel={ADMIN_TEXT.banConfirm}
      pendingLabel="Banning"
      destructive
      failureTitle={ADMIN_TEXT.actionFailed}
      onConfirm={() => {
        if (user) onConfirm(user);
      }}
    />
  );
}
