// Confirms a ban: the user is signed out, cannot sign in, and their sites go offline.
import type { AdminUser } from "../../../common/admin";
import { ADMIN_TEXT } from "../../../common/texts";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from "../ui/alert-dialog";

/** `user` null: closed. The ban is applied at once in the list, so the dialog closes on confirm. */
export function BanUserDialog({
  user,
  onConfirm,
  onClose,
}: {
  user: AdminUser | null;
  onConfirm: (user: AdminUser) => void;
  onClose: () => void;
}) {
  return (
    <AlertDialog
      open={user !== null}
      onOpenChange={(open) => !open && onClose()}
    >
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>{ADMIN_TEXT.banTitle}</AlertDialogTitle>
          <AlertDialogDescription>
            <strong className="font-medium break-all text-foreground">
              {user?.email}
            </strong>{" "}
            {ADMIN_TEXT.banBody}
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>{ADMIN_TEXT.cancel}</AlertDialogCancel>
          <AlertDialogAction
            variant="destructive"
            onClick={() => user && onConfirm(user)}
          >
            {ADMIN_TEXT.banConfirm}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
