// Change password through better-auth (POST /api/auth/change-password). Every other session is
// revoked in the same request; this browser gets a fresh session and stays signed in.
import { useState, type FormEvent } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { Info } from "lucide-react";
import { PASSWORD_MIN_LENGTH } from "../../../common/limits";
import { SETTINGS_TEXT } from "../../../common/texts";
import { authClient } from "../../lib/auth-client";
import { settleAuthCall } from "../../lib/auth-errors";
import { queryKeys } from "../../lib/queries";
import { useSession } from "../../lib/session";
import { FormField, describedBy } from "../auth/FormField";
import { Button } from "../ui/button";
import {
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
} from "../ui/card";
import { PasswordInput } from "../ui/password-input";
import { Spinner } from "../ui/spinner";
import {
  validatePasswordChange,
  type PasswordChange,
  type PasswordErrors,
} from "./password";
import { twoFactorErrorMessage } from "./two-factor";

const T = SETTINGS_TEXT.password;
const EMPTY: PasswordChange = { current: "", next: "", confirm: "" };

export function ChangePassword() {
  const queryClient = useQueryClient();
  const session = useSession();
  const [values, setValues] = useState<PasswordChange>(EMPTY);
  const [errors, setErrors] = useState<PasswordErrors>({});
  const [submitting, setSubmitting] = useState(false);

  const set = (field: keyof PasswordChange) => (value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field]) setErrors((current) => ({ ...current, [field]: undefined }));
  };

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const invalid = validatePasswordChange(values);
    const first = (["current", "next", "confirm"] as const).find((f) => invalid[f]);
    setErrors(invalid);
    if (first) {
      document.getElementById(`password-${first}`)?.focus();
      return;
    }
    setSubmitting(true);
    const { error } = await settleAuthCall(
      authClient.changePassword({
        currentPassword: values.current,
        newPassword: values.next,
        revokeOtherSessions: true,
      }),
    );
    setSubmitting(false);
    if (error) {
      if (error.code === "INVALID_PASSWORD") {
        setErrors({ current: T.wrongCurrent });
        document.getElementById("password-current")?.focus();
      } else if (error.code === "PASSWORD_TOO_SHORT" || error.code === "PASSWORD_TOO_LONG") {
        setErrors({ next: error.message ?? T.tooShort(PASSWORD_MIN_LENGTH) });
        document.getElementById("password-next")?.focus();
      }
      toast.error(T.failed, { description: twoFactorErrorMessage(error) });
      return;
    }
    setValues(EMPTY);
    setErrors({});
    toast.success(T.changed, { description: T.changedDescription });
    await session.refresh();
    await queryClient.invalidateQueries({ queryKey: queryKeys.sessions });
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">{T.title}</CardTitle>
        <CardDescription className="flex items-start gap-1.5">
          <Info className="mt-0.5 size-3.5 shrink-0" aria-hidden />
          {T.description}
        </CardDescription>
      </CardHeader>
      <form noValidate onSubmit={onSubmit} aria-label={T.title}>
        <CardContent className="grid gap-5">
          <FormField id="password-current" label={T.current} error={errors.current}>
            <PasswordInput
              id="password-current"
              autoComplete="current-password"
              value={values.current}
              onChange={(e) => set("current")(e.target.value)}
              {...describedBy("password-current", errors.current)}
            />
          </FormField>
          <FormField
            id="password-next"
            label={T.next}
            error={errors.next}
            hint={T.hint(PASSWORD_MIN_LENGTH)}
          >
            <PasswordInput
              id="password-next"
              autoComplete="new-password"
              minLength={PASSWORD_MIN_LENGTH}
              value={values.next}
              onChange={(e) => set("next")(e.target.value)}
              {...describedBy("password-next", errors.next, true)}
            />
          </FormField>
          <FormField id="password-confirm" label={T.confirm} error={errors.confirm}>
            <PasswordInput
              id="password-confirm"
              autoComplete="new-password"
              value={values.confirm}
              onChange={(e) => set("confirm")(e.target.value)}
              {...describedBy("password-confirm", errors.confirm)}
            />
          </FormField>
        </CardContent>
        <CardFooter className="justify-end border-t px-6 py-4">
          <Button type="submit" disabled={submitting} className="w-full sm:w-auto">
            {submitting && <Spinner className="size-4 text-current" label="Saving" />}
            {T.submit}
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}

