import { useEffect, useState, type FormEvent } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { toast } from "sonner";
import { AUTH_SCREEN_TEXT, AUTH_TEXT } from "../../../common/texts";
import { AuthSubmit } from "../../components/auth/AuthSubmit";
import { AuthLayout } from "../../components/auth/AuthLayout";
import { FormAlert } from "../../components/auth/FormAlert";
import { FormField } from "../../components/auth/FormField";
import { validateLogin } from "../../components/auth/validation";
import { Checkbox } from "../../components/ui/checkbox";
import { Input } from "../../components/ui/input";
import { Label } from "../../components/ui/label";
import { PasswordInput } from "../../components/ui/password-input";
import { Spinner } from "../../components/ui/spinner";
import { authClient } from "../../lib/auth-client";
import {
  settleAuthCall,
  authErrorMessage,
  loginNoticeFor,
} from "../../lib/auth-errors";
import { safeReturnPath } from "../../lib/redirect";
import { useSession } from "../../lib/session";

const T = AUTH_SCREEN_TEXT.login;

/** The code screen, carrying the return target (left out when it is the default). */
function twoFactorPathFor(target: string): string {
  return target === "/dashboard"
    ? "/auth/two-factor"
    : `/auth/two-factor?redirect=${encodeURIComponent(target)}`;
}

export function Login() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const session = useSession();
  const { loading, user } = session;
  const target = safeReturnPath(params.get("redirect")) ?? "/dashboard";
  const notice = loginNoticeFor(params);

  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [rememberMe, setRememberMe] = useState(false);
  const [error, setError] = useState<{
    message: string;
    kind: "error" | "info";
  } | null>(null);
  const [submitting, setSubmitting] = useState(false);

  useEffect(() => {
    if (!loading && user) void navigate(target, { replace: true });
  }, [loading, user, target, navigate]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const invalid = validateLogin({ email, password });
    if (invalid.form) {
      setError({ message: invalid.form, kind: "error" });
      document.getElementById(email.trim() ? "password" : "email")?.focus();
      return;
    }
    setSubmitting(true);
    setError(null);
    const { data, error: failure } = await settleAuthCall(
      authClient.signIn.email({ email: email.trim(), password, rememberMe }),
    );
    if (failure) {
      const message = authErrorMessage(failure);
      const unverified = failure.code === "EMAIL_NOT_VERIFIED";
      // An unconfirmed address is not a mistake by the user: say what happened, not "error".
      if (unverified) toast.info(message);
      else toast.error(message);
      setError({ message, kind: unverified ? "info" : "error" });
      setSubmitting(false);
      return;
    }
    // Two-factor sign-in: no session yet. The code screen finishes it and goes to the same target.
    if (data && "twoFactorRedirect" in data && data.twoFactorRedirect) {
      void navigate(twoFactorPathFor(target));
      return;
    }
    toast.success(AUTH_TEXT.loginSuccess);
    await session.refresh();
    void navigate(target, { replace: true });
  }

  if (!loading && user) {
    return (
      <div className="flex min-h-dvh items-center justify-center">
        <Spinner className="size-8" label="Opening your dashboard" />
      </div>
    );
  }

  return (
    <AuthLayout
      title={T.title}
      subtitle={T.subtitle}
      documentTitle="Sign in"
      footer={
        <>
          {T.noAccount}{" "}
          <Link
            to="/auth/signup"
            className="font-medium text-primary hover:underline"
          >
            {T.signUpLink}
          </Link>
        </>
      }
    >
      {notice && !error && (
        <FormAlert kind={notice.kind} className="mb-6">
          {notice.message}
        </FormAlert>
      )}
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-5">
        <FormField id="email" label="Email">
          <Input
            id="email"
            type="email"
            autoComplete="email"
            inputMode="email"
            placeholder="you@example.com"
            required
            autoFocus
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            aria-invalid={
              error?.message === AUTH_TEXT.missingCredentials && !email.trim()
                ? true
                : undefined
            }
          />
        </FormField>
        <FormField
          id="password"
          label="Password"
          aside={
            <Link
              to="/auth/forgot-password"
              className="text-sm font-medium text-primary hover:underline"
            >
              {T.forgotPassword}
            </Link>
          }
        >
          <PasswordInput
            id="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            aria-invalid={
              error?.message === AUTH_TEXT.missingCredentials && !password
                ? true
                : undefined
            }
          />
        </FormField>
        <div className="flex items-center gap-2.5">
          <Checkbox
            id="remember-me"
            checked={rememberMe}
            onCheckedChange={(v) => setRememberMe(v === true)}
          />
          <Label htmlFor="remember-me" className="cursor-pointer font-normal">
            {T.rememberMe}
          </Label>
        </div>
        {error && (
          <FormAlert kind={error.kind} urgent>
            {error.message}
          </FormAlert>
        )}
        <AuthSubmit submitting={submitting}>{T.submit}</AuthSubmit>
      </form>
    </AuthLayout>
  );
}
