import { useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Link, useNavigate, useSearchParams } from "react-router";
import { toast } from "sonner";
import { Link2Off } from "lucide-react";
import { AUTH_SCREEN_TEXT, AUTH_TEXT } from "../../../common/texts";
import { AuthSubmit } from "../../components/auth/AuthSubmit";
import { AuthLayout } from "../../components/auth/AuthLayout";
import { FormAlert } from "../../components/auth/FormAlert";
import { FormField, describedBy } from "../../components/ui/FormField";
import { ResetPasswordForm, type ResetPasswordInput } from "../../components/auth/authForms";
import { Button } from "../../components/ui/Button";
import { PasswordInput } from "../../components/ui/PasswordInput";
import { authClient } from "../../lib/authClient";
import { settleAuthCall, authErrorMessage, isInvalidResetToken } from "../../lib/authErrors";
import { useSession } from "../../lib/session";

const T = AUTH_SCREEN_TEXT.update;

/** The target of the reset link: better-auth sends ?token=… when the link is good, ?error=INVALID_TOKEN when not. */
export function UpdatePassword() {
  const [params] = useSearchParams();
  const token = params.get("error") ? null : params.get("token");
  const [rejected, setRejected] = useState(false);

  if (!token || rejected) return <InvalidLink />;
  return <NewPasswordForm token={token} onRejected={() => setRejected(true)} />;
}

function NewPasswordForm({ token, onRejected }: { token: string; onRejected: () => void }) {
  const navigate = useNavigate();
  const session = useSession();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ResetPasswordInput, unknown, ResetPasswordForm>({
    resolver: zodResolver(ResetPasswordForm),
    defaultValues: { password: "", confirm: "" },
  });

  const onSubmit = handleSubmit(async ({ password }) => {
    const { error } = await settleAuthCall(authClient.resetPassword({ newPassword: password, token }));
    if (error) {
      if (isInvalidResetToken(error)) {
        onRejected();
        return;
      }
      const message = authErrorMessage(error);
      toast.error(message);
      setError("root", { message });
      return;
    }
    toast.success(T.successTitle, { description: T.successDescription });
    // The reset signed out every session, this browser's included; let the app notice.
    if (session.user) await session.refresh();
    void navigate("/auth/login", { replace: true });
  });

  return (
    <AuthLayout title={T.title} subtitle={T.subtitle}>
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-5">
        <FormField id="new-password" label="New Password" hint={AUTH_TEXT.passwordHint} error={errors.password?.message}>
          <PasswordInput
            id="new-password"
            autoComplete="new-password"
            required
            autoFocus
            {...describedBy("new-password", errors.password?.message, true)}
            {...register("password")}
          />
        </FormField>
        <FormField id="confirm-password" label="Confirm Password" error={errors.confirm?.message}>
          <PasswordInput
            id="confirm-password"
            autoComplete="new-password"
            required
            {...describedBy("confirm-password", errors.confirm?.message)}
            {...register("confirm")}
          />
        </FormField>
        {errors.root?.message && <FormAlert kind="error">{errors.root.message}</FormAlert>}
        <AuthSubmit submitting={isSubmitting}>{T.submit}</AuthSubmit>
      </form>
    </AuthLayout>
  );
}

function InvalidLink() {
  return (
    <AuthLayout
      title={T.invalidTitle}
      documentTitle={T.title}
      icon={
        <div className="flex size-12 items-center justify-center rounded-full bg-destructive/10 text-destructive">
          <Link2Off className="size-6" aria-hidden />
        </div>
      }
    >
      <div className="flex flex-col gap-6">
        <p role="alert" className="-mt-2 text-sm leading-relaxed text-muted-foreground">
          {T.invalidLink}
        </p>
        <Button asChild size="lg" className="w-full">
          <Link to="/auth/forgot-password">{T.requestNew}</Link>
        </Button>
        <p className="text-center text-sm text-muted-foreground">
          <Link to="/auth/login" className="font-medium text-primary hover:underline">
            {AUTH_SCREEN_TEXT.forgot.backToSignIn}
          </Link>
        </p>
      </div>
    </AuthLayout>
  );
}
