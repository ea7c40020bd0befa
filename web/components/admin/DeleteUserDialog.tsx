// Deleting a user is final, so the admin types the address to confirm it.
import { useId, useState } from "react";
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
import { Input } from "../ui/input";
import { Label } from "../ui/label";
import { Spinner } from "../ui/spinner";
import { confirmsEmail } from "./admin-users";

/** `user` null: closed. Stays open while the request runs; the caller closes it when it settles. */
export function DeleteUserDialog({
  user,
  pending,
  onConfirm,
  onClose,
}: {
  user: AdminUser | null;
  pending: boolean;
  onConfirm: (user: AdminUser) => void;
  onClose: () => void;
}) {
  return (
    <AlertDialog
      open={user !== null}
      onOpenChange={(open) => !open && !pending && onClose()}
    >
      <AlertDialogContent>
        {/* Keyed by user so the typed text never carries over to the next user. */}
        {user && (
          <DeleteForm
            key={user.id}
            user={user}
            pending={pending}
            onConfirm={onConfirm}
          />
        )}
      </AlertDialogContent>
    </AlertDialog>
  );
}

function DeleteForm({
  user,
  pending,
  onConfirm,
}: {
  user: AdminUser;
  pending: boolean;
  onConfirm: (user: AdminUser) => void;
}) {
  const [typed, setTyped] = useState("");
  const inputId = useId();
  const confirmed = confirmsEmail(typed, user.email);
  return (
    <form
      className="flex flex-col gap-5"
      onSubmit={(event) => {
        event.preventDefault();
        if (confirmed && !pending) onConfirm(user);
      }}
    >
      <AlertDialogHeader>
        <AlertDialogTitle>{ADMIN_TEXT.deleteTitle}</AlertDialogTitle>
        <AlertDialogDescription>
          <strong className="font-medium break-all text-foreground">
            {user.email}
          </strong>
          : {ADMIN_TEXT.deleteBody}
        </AlertDialogDescription>
      </AlertDialogHeader>
      <div className="flex flex-col gap-2">
        <Label
          htmlFor={inputId}
          className="leading-snug font-normal [overflow-wrap:anywhere]"
        >
          {ADMIN_TEXT.deleteConfirmLabel(user.email)}
        </Label>
        <Input
          id={inputId}
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          placeholder={user.email}
          disabled={pending}
        />
      </div>
      <AlertDialogFooter>
        <AlertDialogCancel disabled={pending}>
          {ADMIN_TEXT.cancel}
        </AlertDialogCancel>
        <AlertDialogAction
          variant="destructive"
          type="submit"
          disabled={!confirmed || pending}
          onClick={(event) => {
            event.preventDefault();
            if (confirmed && !pending) onConfirm(user);
          }}
        >
          {pending && (
            <Spinner className="size-4 text-current" label="Deleting" />
          )}
          {ADMIN_TEXT.deleteConfirm}
        </AlertDialogAction>
      </AlertDialogFooter>
    </form>
  );
}
