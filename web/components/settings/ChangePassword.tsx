// Change password through better-auth (POST /api/auth/change-password). Every other session is
// revoked in the same request; this browser gets a fresh session and stays signed in.
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { Info } from "lucide-react";
import { PASSWORD_MIN_LENGTH } from "../../../common/limits";
import { SETTINGS_TEXT } from "../../../common/texts";
import { authClient } from "../../lib/authClient";
import { settleAuthCall } from "../../lib/authErrors";
import { queryKeys } from "../../lib/queries";
import { useSession } from "../../lib/session";
import { FormField, describedBy } from "../ui/FormField";
import { Button } from "../ui/Button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "../ui/Card";
import { PasswordInput } from "../ui/PasswordInput";
import { Spinner } from "../ui/Spinner";
import { PasswordChangeForm, type PasswordChange } from "./password";
import { twoFactorErrorMessage } from "./twoFactor";

const T = SETTINGS_TEXT.password;
const EMPTY: PasswordChange = { current: "", next: "", confirm: "" };

export function ChangePassword() {
  const queryClient = useQueryClient();
  const session = useSession();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm<PasswordChange>({
    resolver: zodResolver(PasswordChangeForm),
    defaultValues: EMPTY,
  });

  const onSubmit = handleSubmit(async (values) => {
    const { error } = await settleAuthCall(
      authClient.changePassword({
        currentPassword: values.current,
        newPassword: values.next,
        revokeOtherSessions: true,
      }),
    );
    if (error) {
      if (error.code === "INVALID_PASSWORD") {
        setError("current", { message: T.wrongCurrent });
        setFocus("current");
      } else if (error.code === "PASSWORD_TOO_SHORT" || error.code === "PASSWORD_TOO_LONG") {
        setError("next", { message: error.message ?? T.tooShort(PASSWORD_MIN_LENGTH) });
        setFocus("next");
      }
      toast.error(T.failed, { description: twoFactorErrorMessage(error) });
      return;
    }
    reset(EMPTY);
    toast.success(T.changed, { description: T.changedDescription });
    await session.refresh();
    await queryClient.invalidateQueries({ queryKey: queryKeys.sessions });
  });

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
          <FormField id="password-current" label={T.current} error={errors.current?.message}>
            <PasswordInput
              id="password-current"
              autoComplete="current-password"
              {...describedBy("password-current", errors.current?.message)}
              {...register("current")}
            />
          </FormField>
          <FormField id="password-next" label={T.next} error={errors.next?.message} hint={T.hint(PASSWORD_MIN_LENGTH)}>
            <PasswordInput
              id="password-next"
              autoComplete="new-password"
              minLength={PASSWORD_MIN_LENGTH}
              {...describedBy("password-next", errors.next?.message, true)}
              {...register("next")}
            />
          </FormField>
          <FormField id="password-confirm" label={T.confirm} error={errors.confirm?.message}>
            <PasswordInput
              id="password-confirm"
              autoComplete="new-password"
              {...describedBy("password-confirm", errors.confirm?.message)}
              {...register("confirm")}
            />
          </FormField>
        </CardContent>
        <CardFooter className="justify-end border-t px-6 py-4">
          <Button type="submit" disabled={isSubmitting} className="w-full sm:w-auto">
            {isSubmitting && <Spinner className="size-4 text-current" label="Saving" />}
            {T.submit}
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}
