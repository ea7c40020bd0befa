// Deleting a user is final, so the admin types the address to confirm it.
import { useId } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import type { AdminUser } from "../../../common/admin";
import { ADMIN_TEXT } from "../../../common/texts";
import { ConfirmDialog } from "../ui/ConfirmDialog";
import { Input } from "../ui/Input";
import { Label } from "../ui/Label";
import { typedEmailConfirmation, type TypedEmail } from "./adminUsers";

/** `user` null: closed. Stays open while the request runs, and after a failure. */
export function DeleteUserDialog({
  user,
  onConfirm,
  onClose,
}: {
  user: AdminUser | null;
  onConfirm: (user: AdminUser) => Promise<unknown>;
  onClose: () => void;
}) {
  const inputId = useId();
  const {
    register,
    reset,
    formState: { isValid },
  } = useForm<TypedEmail>({
    resolver: zodResolver(typedEmailConfirmation(user?.email ?? "")),
    mode: "onChange",
    defaultValues: { typed: "" },
  });

  return (
    <ConfirmDialog
      open={user !== null}
      onOpenChange={(open) => {
        if (open) return;
        // The typed text never carries over to the next user.
        reset();
        onClose();
      }}
      title={ADMIN_TEXT.deleteTitle}
      description={
        <>
          <strong className="font-medium break-all text-foreground">{user?.email}</strong>: {ADMIN_TEXT.deleteBody}
        </>
      }
      confirmLabel={ADMIN_TEXT.deleteConfirm}
      pendingLabel="Deleting"
      destructive
      confirmDisabled={!isValid}
      failureTitle={ADMIN_TEXT.deleteFailed}
      onConfirm={() => (user ? onConfirm(user) : undefined)}
    >
      <div className="flex flex-col gap-2">
        <Label htmlFor={inputId} className="leading-snug font-normal [overflow-wrap:anywhere]">
          {ADMIN_TEXT.deleteConfirmLabel(user?.email ?? "")}
        </Label>
        <Input id={inputId} autoComplete="off" autoCapitalize="off" spellCheck={false} placeholder={user?.email} {...register("typed")} />
      </div>
    </ConfirmDialog>
  );
}
