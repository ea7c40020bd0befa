// /auth/two-factor: the second step of signing in when two-factor authentication is on. Sign-in
// left a short-lived cookie naming the pending user; a code from the authenticator app (or a
// backup code) turns it into a session, then the user goes where sign-in would have gone.
import { useEffect, useRef, useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Link, useNavigate, useSearchParams } from "react-router";
import { toast } from "sonner";
import { KeyRound, ShieldCheck } from "lucide-react";
import { AUTH_TEXT, TWO_FACTOR_SCREEN_TEXT as T } from "../../../common/texts";
import { AuthLayout } from "../../components/auth/AuthLayout";
import { AuthSubmit } from "../../components/auth/AuthSubmit";
import { twoFactorForm, type TwoFactorInput, type TwoFactorMode } from "../../components/auth/authForms";
import { FormAlert } from "../../components/auth/FormAlert";
import { FormField, describedBy } from "../../components/ui/FormField";
import { OtpInput } from "../../components/settings/OtpInput";
import { twoFactorErrorMessage } from "../../components/settings/twoFactor";
import { Checkbox } from "../../components/ui/Checkbox";
import { Input } from "../../components/ui/Input";
import { Label } from "../../components/ui/Label";
import { Spinner } from "../../components/ui/Spinner";
import { authClient } from "../../lib/authClient";
import { settleAuthCall } from "../../lib/authErrors";
import { safeReturnPath } from "../../lib/redirect";
import { useSession } from "../../lib/session";

export function TwoFactor() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const session = useSession();
  const { loading, user } = session;
  const target = safeReturnPath(params.get("redirect")) ?? "/dashboard";
  const loginPath = target === "/dashboard" ? "/auth/login" : `/auth/login?redirect=${encodeURIComponent(target)}`;

  const [mode, setMode] = useState<TwoFactorMode>("app");
  const {
    register,
    control,
    handleSubmit,
    setError,
    clearErrors,
    setFocus,
    setValue,
    formState: { errors, isSubmitting },
  } = useForm<TwoFactorInput, unknown, { code: string; trustDevice: boolean }>({
    resolver: zodResolver(twoFactorForm(mode)),
    defaultValues: { code: "", backupCode: "", trustDevice: false },
  });
  const field = mode === "app" ? "code" : "backupCode";
  // The sixth digit submits on its own; Enter at the same moment must not send the code twice.
  const inFlight = useRef(false);

  // Signed in already (or the code just worked): straight on.
  useEffect(() => {
    if (!loading && user) void navigate(target, { replace: true });
  }, [loading, user, target, navigate]);

  const onSubmit = handleSubmit(async ({ code, trustDevice }) => {
    if (inFlight.current) return;
    inFlight.current = true;
    const call =
      mode === "app" ? authClient.twoFactor.verifyTotp({ code, trustDevice }) : authClient.twoFactor.verifyBackupCode({ code, trustDevice });
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
      // An expired sign-in is the whole form's problem (start again); anything else, the code's.
      setError(expired ? "root" : field, { message });
      if (mode === "app") setValue("code", "");
      setFocus(field);
      return;
    }
    toast.success(AUTH_TEXT.loginSuccess);
    await session.refresh();
    void navigate(target, { replace: true });
  });

  function switchMode() {
    setMode((current) => (current === "app" ? "backup" : "app"));
    clearErrors();
  }

  if (!loading && user) {
    return (
      <div className="flex min-h-dvh items-center justify-center">
        <Spinner className="size-8" label="Opening your dashboard" />
      </div>
    );
  }

  const fieldError = errors[field]?.message;
  const expired = errors.root?.message;

  return (
    <AuthLayout
      title={T.title}
      subtitle={mode === "app" ? T.subtitle : T.backupSubtitle}
      icon={
        <span className="flex size-12 items-center justify-center rounded-xl bg-accent text-primary">
          {mode === "app" ? <ShieldCheck className="size-6" aria-hidden /> : <KeyRound className="size-6" aria-hidden />}
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
            <Controller
              control={control}
              name="code"
              render={({ field: code }) => (
                <OtpInput
                  id="code"
                  ref={code.ref}
                  value={code.value}
                  onChange={code.onChange}
                  onBlur={code.onBlur}
                  onComplete={() => void onSubmit()}
                  autoFocus
                  {...describedBy("code", fieldError)}
                />
              )}
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
              {...describedBy("backup-code", fieldError)}
              {...register("backupCode")}
            />
          </FormField>
        )}
        <div className="flex items-center gap-2.5">
          <Controller
            control={control}
            name="trustDevice"
            render={({ field: trust }) => (
              <Checkbox
                id="trust-device"
                ref={trust.ref}
                checked={trust.value}
                onCheckedChange={(v) => trust.onChange(v === true)}
                onBlur={trust.onBlur}
              />
            )}
          />
          <Label htmlFor="trust-device" className="cursor-pointer font-normal">
            {T.trustDevice}
          </Label>
        </div>
        {expired && (
          <FormAlert kind="error">
            {expired}{" "}
            <Link to={loginPath} className="font-medium underline">
              {T.backToSignIn}
            </Link>
          </FormAlert>
        )}
        <AuthSubmit submitting={isSubmitting}>{T.verify}</AuthSubmit>
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
