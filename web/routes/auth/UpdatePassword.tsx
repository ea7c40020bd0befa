import { useState, type FormEvent } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { toast } from "sonner";
import { Link2Off } from "lucide-react";
import { AUTH_SCREEN_TEXT, AUTH_TEXT } from "../../../common/texts";
import { AuthSubmit } from "../../components/auth/AuthSubmit";
import { AuthLayout } from "../../components/auth/AuthLayout";
import { FormAlert } from "../../components/auth/FormAlert";
import { FormField, describedBy } from "../../components/auth/FormField";
import {
  validateNewPassword,
  type FormErrors,
  type NewPasswordField,
} from "../../components/auth/validation";
import { Button } from "../../components/ui/button";
import { PasswordInput } from "../../components/ui/password-input";
import { authClient } from "../../lib/auth-client";
import {
  settleAuthCall,
  authErrorMessage,
  isInvalidResetToken,
} from "../../lib/auth-errors";
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

function NewPasswordForm({
  token,
  onRejected,
}: {
  token: string;
  onRejected: () => void;
}) {
  const navigate = useNavigate();
  const session = useSession();
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [errors, setErrors] = useState<FormErrors<NewPasswordField>>({});
  const [submitting, setSubmitting] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = validateNewPassword({ password, confirm });
    setErrors(found);
    if (found.fields) {
      document
        .getElementById(
          found.fields.password ? "new-password" : "confirm-password",
        )
        ?.focus();
      return;
    }
    setSubmitting(true);
    const { error } = await settleAuthCall(
      authClient.resetPassword({ newPassword: password, token }),
    );
    setSubmitting(false);
    if (error) {
      if (isInvalidResetToken(error)) {
        onRejected();
        return;
      }
      const message = authErrorMessage(error);
      toast.error(message);
      setErrors({ form: message });
      return;
    }
    toast.success(T.successTitle, { description: T.successDescription });
    // The reset signed out every session, this browser's included; let the app notice.
    if (session.user) await session.refresh();
    void navigate("/auth/login", { replace: true });
  }

  return (
    <AuthLayout title={T.title} subtitle={T.subtitle}>
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-5">
        <FormField
          id="new-password"
          label="New Password"
          hint={AUTH_TEXT.passwordHint}
          error={errors.fields?.password}
        >
          <PasswordInput
            id="new-password"
            autoComplete="new-password"
            required
            autoFocus
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            {...describedBy("new-password", errors.fields?.password, true)}
          />
        </FormField>
        <FormField
          id="confirm-password"
          label="Confirm Password"
          error={errors.fields?.confirm}
        >
          <PasswordInput
            id="confirm-password"
            autoComplete="new-password"
            required
            value={confirm}
            onChange={(e) => setConfirm(e.target.value)}
            {...describedBy("confirm-password", errors.fields?.confirm)}
          />
        </FormField>
        {errors.form && <FormAlert kind="error">{errors.form}</FormAlert>}
        <AuthSubmit submitting={submitting}>{T.submit}</AuthSubmit>
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
        <p
          role="alert"
          className="-mt-2 text-sm leading-relaxed text-muted-foreground"
        >
          {T.invalidLink}
        </p>
        <Button asChild size="lg" className="w-full">
          <Link to="/auth/forgot-password">{T.requestNew}</Link>
        </Button>
        <p className="text-center text-sm text-muted-foreground">
          <Link
            to="/auth/login"
            className="font-medium text-primary hover:underline"
          >
            {AUTH_SCREEN_TEXT.forgot.backToSignIn}
          </Link>
        </p>
      </div>
    </AuthLayout>
  );
}
