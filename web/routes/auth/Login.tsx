import { useEffect } from "react";
import { Controller, useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Link, useNavigate, useSearchParams } from "react-router";
import { toast } from "sonner";
import { AUTH_SCREEN_TEXT, AUTH_TEXT } from "../../../common/texts";
import { AuthSubmit } from "../../components/auth/AuthSubmit";
import { AuthLayout } from "../../components/auth/AuthLayout";
import { FormAlert } from "../../components/auth/FormAlert";
import { FormField } from "../../components/ui/FormField";
import { LoginForm, type LoginInput } from "../../components/auth/authForms";
import { Checkbox } from "../../components/ui/Checkbox";
import { Input } from "../../components/ui/Input";
import { Label } from "../../components/ui/Label";
import { PasswordInput } from "../../components/ui/PasswordInput";
import { Spinner } from "../../components/ui/Spinner";
import { authClient } from "../../lib/authClient";
import { settleAuthCall, authErrorMessage, loginNoticeFor } from "../../lib/authErrors";
import { safeReturnPath } from "../../lib/redirect";
import { useSession } from "../../lib/session";

const T = AUTH_SCREEN_TEXT.login;

/** The code screen, carrying the return target (left out when it is the default). */
function twoFactorPathFor(target: string): string {
  return target === "/dashboard" ? "/auth/two-factor" : `/auth/two-factor?redirect=${encodeURIComponent(target)}`;
}

export function Login() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const session = useSession();
  const { loading, user } = session;
  const target = safeReturnPath(params.get("redirect")) ?? "/dashboard";
  const notice = loginNoticeFor(params);

  const {
    register,
    control,
    handleSubmit,
    setError,
    setFocus,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<LoginInput, unknown, LoginForm>({
    resolver: zodResolver(LoginForm),
    defaultValues: { email: "", password: "", rememberMe: false },
    shouldFocusError: false,
  });
  // A refusal that is not a mistake (an unconfirmed address) is told as information.
  const error = errors.root?.message
    ? {
        message: errors.root.message,
        kind: errors.root.type === "info" ? ("info" as const) : ("error" as const),
      }
    : null;
  const missing = error?.message === AUTH_TEXT.missingCredentials;
  const [email, password] = watch(["email", "password"]);

  useEffect(() => {
    if (!loading && user) void navigate(target, { replace: true });
  }, [loading, user, target, navigate]);

  const onSubmit = handleSubmit(
    async ({ email, password, rememberMe }) => {
      const { data, error: failure } = await settleAuthCall(authClient.signIn.email({ email, password, rememberMe }));
      if (failure) {
        const message = authErrorMessage(failure);
        const unverified = failure.code === "EMAIL_NOT_VERIFIED";
        // An unconfirmed address is not a mistake by the user: say what happened, not "error".
        if (unverified) toast.info(message);
        else toast.error(message);
        setError("root", { type: unverified ? "info" : "error", message });
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
    },
    () => setFocus(email.trim() ? "password" : "email"),
  );

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
          <Link to="/auth/signup" className="font-medium text-primary hover:underline">
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
            aria-invalid={missing && !email.trim() ? true : undefined}
            {...register("email")}
          />
        </FormField>
        <FormField
          id="password"
          label="Password"
          aside={
            <Link to="/auth/forgot-password" className="text-sm font-medium text-primary hover:underline">
              {T.forgotPassword}
            </Link>
          }
        >
          <PasswordInput
            id="password"
            autoComplete="current-password"
            required
            aria-invalid={missing && !password ? true : undefined}
            {...register("password")}
          />
        </FormField>
        <div className="flex items-center gap-2.5">
          <Controller
            control={control}
            name="rememberMe"
            render={({ field }) => (
              <Checkbox
                id="remember-me"
                ref={field.ref}
                checked={field.value}
                onCheckedChange={(v) => field.onChange(v === true)}
                onBlur={field.onBlur}
              />
            )}
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
        <AuthSubmit submitting={isSubmitting}>{T.submit}</AuthSubmit>
      </form>
    </AuthLayout>
  );
}
