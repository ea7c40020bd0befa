// Asks for the account password before a sensitive change (two-factor on or off, new backup
// codes). `onConfirm` returns the server's refusal, shown under the field, or null.
import { useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { SETTINGS_TEXT } from "../../../common/texts";
import { FormField, describedBy } from "../ui/FormField";
import { DialogFormActions, FormDialog } from "../ui/Dialog";
import { PasswordInput } from "../ui/PasswordInput";
import { CurrentPasswordForm, type CurrentPassword } from "./password";

const T = SETTINGS_TEXT.twoFactor;

type Confirm = (password: string) => Promise<string | null>;

export function PasswordDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  destructive = false,
  onConfirm,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  confirmLabel: string;
  destructive?: boolean;
  onConfirm: Confirm;
}) {
  const [busy, setBusy] = useState(false);
  return (
    <FormDialog open={open} onOpenChange={onOpenChange} pending={busy} title={title} description={description} className="max-w-md">
      <PasswordForm confirmLabel={confirmLabel} destructive={destructive} onBusyChange={setBusy} onConfirm={onConfirm} />
    </FormDialog>
  );
}

/** The field and buttons; mounted fresh each time its dialog opens, so it starts empty. */
export function PasswordForm({
  confirmLabel,
  destructive = false,
  onBusyChange,
  onConfirm,
}: {
  confirmLabel: string;
  destructive?: boolean;
  onBusyChange?: (busy: boolean) => void;
  onConfirm: Confirm;
}) {
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm<CurrentPassword>({
    resolver: zodResolver(CurrentPasswordForm),
    defaultValues: { password: "" },
  });
  const error = errors.password?.message;

  const onSubmit = handleSubmit(async ({ password }) => {
    onBusyChange?.(true);
    const failure = await onConfirm(password);
    onBusyChange?.(false);
    if (failure) {
      setError("password", { message: failure });
      setFocus("password");
    }
  });

  return (
    <form noValidate onSubmit={onSubmit} className="mt-5 grid gap-5">
      <FormField id="confirm-password" label={T.password} error={error}>
        <PasswordInput
          id="confirm-password"
          autoComplete="current-password"
          autoFocus
          {...describedBy("confirm-password", error)}
          {...register("password")}
        />
      </FormField>
      <DialogFormActions submitLabel={confirmLabel} pendingLabel="Checking" pending={isSubmitting} destructive={destructive} />
    </form>
  );
}
