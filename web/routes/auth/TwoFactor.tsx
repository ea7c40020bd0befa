// /auth/two-factor: the second step of signing in when two-factor authentication is on. Sign-in
// left a short-lived cookie naming the pending user; a code from the authenticator app (or a
// backup code) turns it into a session, then the user goes where sign-in would have gone.
import { useEffect, useRef, useState, type FormEvent } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { toast } from "sonner";
import { KeyRound, ShieldCheck } from "lucide-react";
import { AUTH_TEXT, TWO_FACTOR_SCREEN_TEXT as T } from "../../../common/texts";
import { AuthLayout } from "../../components/auth/AuthLayout";
import { AuthSubmit } from "../../components/auth/AuthSubmit";
import { FormAlert } from "../../components/auth/FormAlert";
import { FormField, describedBy } from "../../components/auth/FormField";
import { OtpInput } from "../../components/settings/OtpInput";
import { twoFactorErrorMessage } from "../../components/settings/two-factor";
import { Checkbox } from "../../components/ui/checkbox";
import { Input } from "../../components/ui/input";
import { Label } from "../../components/ui/label";
import { Spinner } from "../../components/ui/spinner";
import { authClient } from "../../lib/auth-client";
import { settleAuthCall } from "../../lib/auth-errors";
import { safeReturnPath } from "../../lib/redirect";
import { useSession } from "../../lib/session";

type Mode = "app" | "backup";

export function TwoFactor() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const session = useSession();
  const { loading, user } = session;
  const target = safeReturnPath(params.get("redirect")) ?? "/dashboard";
  const loginPath =
    target === "/dashboard"
      ? "/auth/login"
      : `/auth/login?redirect=${encodeURIComponent(target)}`;

  const [mode, setMode] = useState<Mode>("app");
  const [code, setCode] = useState("");
  const [backupCode, setBackupCode] = useState("");
  const [trustDevice, setTrustDevice] = useState(false);
  const [error, setError] = useState<{ message: string; expired: boolean } | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const inFlight = useRef(false);

  // Signed in already (or the code just worked): straight on.
  useEffect(() => {
    if (!loading && user) void navigate(target, { replace: true });
  }, [loading, user, target, navigate]);

  async function verify(value: string) {
    if (inFlight.current) return;
    inFlight.current = true;
    setSubmitting(true);
    setError(null);
    const call =
      mode === "app"
        ? authClient.twoFactor.verifyTotp({ code: value, trustDevice })
        : authClient.twoFactor.verifyBackupCode({ code: value, trustDevice });
    const { error: failure } = await settleAuthCall(call);
    inFlight.current = false;
    if (failure) {
      const expired = failure.code === "INVALID_TWO_FACTOR_COOKIE";
      const message = expired
        ? T.expired
        : failure.code === "INVALID_CODE"
          ? T.invalidCode
          : failure.code === "INVALID_BACKUP_CODE"
            ? T.invalidBackupCode
            : twoFactorErrorMessage(failure);
      setError({ message, expired });
      setSubmitting(false);
      if (mode === "app") setCode("");
      document.getElementById(mode === "app" ? "code" : "backup-code")?.focus();
      return;
    }
    toast.success(AUTH_TEXT.loginSuccess);
    await session.refresh();
    void navigate(target, { replace: true });
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (mode === "app") {
      if (code.length !== 6) {
        setError({ message: T.codeRequired, expired: false });
        document.getElementById("code")?.focus();
        return;
      }
      void verify(code);
    } else {
      const value = backupCode.trim();
      if (!value) {
        setError({ message: T.backupRequired, expired: false });
        document.getElementById("backup-code")?.focus();
        return;
      }
      void verify(value);
    }
  }

  function switchMode() {
    setMode((current) => (current === "app" ? "backup" : "app"));
    setError(null);
  }

  if (!loading && user) {
    return (
      <div className="flex min-h-dvh items-center justify-center">
        <Spinner className="size-8" label="Opening your dashboard" />
      </div>
    );
  }

  const fieldError = error && !error.expired ? error.message : undefined;

  return (
    <AuthLayout
      title={T.title}
      subtitle={mode === "app" ? T.subtitle : T.backupSubtitle}
      icon={
        <span className="flex size-12 items-center justify-center rounded-xl bg-accent text-primary">
          {mode === "app" ? (
            <ShieldCheck className="size-6" aria-hidden />
          ) : (
            <KeyRound className="size-6" aria-hidden />
          )}
        </span>
      }
      footer={
        <Link to={loginPath} className="font-medium text-primary hover:underline">
          {T.backToSignIn}
        </Link>
      }
    >
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-5">
        {mode === "app" ? (
          <FormField id="code" label={T.code} error={fieldError}>
            <OtpInput
              id="code"
              value={code}
              onChange={setCode}
              onComplete={(value) => void verify(value)}
              autoFocus
              {...describedBy("code", fieldError)}
            />
          </FormField>
        ) : (
          <FormField id="backup-code" label={T.backupCode} error={fieldError}>
            <Input
              id="backup-code"
              autoComplete="off"
              autoCapitalize="off"
              spellCheck={false}
              autoFocus
              placeholder="xxxxx-xxxxx"
              className="h-12 font-mono text-base tracking-wider"
              value={backupCode}
              onChange={(e) => setBackupCode(e.target.value)}
              {...describedBy("backup-code", fieldError)}
            />
          </FormField>
        )}
        <div className="flex items-center gap-2.5">
          <Checkbox
            id="trust-device"
            checked={trustDevice}
            onCheckedChange={(v) => setTrustDevice(v === true)}
          />
          <Label htmlFor="trust-device" className="cursor-pointer font-normal">
            {T.trustDevice}
          </Label>
        </div>
        {error?.expired && (
          <FormAlert kind="error">
            {error.message}{" "}
            <Link to={loginPath} className="font-medium underline">
              {T.backToSignIn}
            </Link>
          </FormAlert>
        )}
        <AuthSubmit submitting={submitting}>{T.verify}</AuthSubmit>
        <button
          type="button"
          onClick={switchMode}
          className="mx-auto cursor-pointer rounded-sm text-sm font-medium text-primary hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
        >
          {mode === "app" ? T.useBackup : T.useApp}
        </button>
      </form>
    </AuthLayout>
  );
}
