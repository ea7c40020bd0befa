import { useState } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Link } from "react-router";
import { toast } from "sonner";
import { ArrowLeft, MailCheck } from "lucide-react";
import { AUTH_SCREEN_TEXT, AUTH_TEXT } from "../../../common/texts";
import { AuthSubmit } from "../../components/auth/AuthSubmit";
import { AuthLayout } from "../../components/auth/AuthLayout";
import { FormAlert } from "../../components/auth/FormAlert";
import { FormField, describedBy } from "../../components/ui/FormField";
import { EmailForm, type EmailInput } from "../../components/auth/authForms";
import { Button } from "../../components/ui/Button";
import { Input } from "../../components/ui/Input";
import { authClient } from "../../lib/authClient";
import { settleAuthCall, authErrorMessage } from "../../lib/authErrors";

const T = AUTH_SCREEN_TEXT.forgot;

export function ForgotPassword() {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    clearErrors,
    formState: { errors, isSubmitting },
  } = useForm<EmailInput, unknown, EmailForm>({
    resolver: zodResolver(EmailForm),
    defaultValues: { email: "" },
  });
  const fieldError = errors.email?.message;

  const onSubmit = handleSubmit(async ({ email }) => {
    // The server answers alike whether or not the address has an account, so this screen
    // cannot be used to find out who is registered.
    const { error } = await settleAuthCall(
      authClient.requestPasswordReset({
        email,
        redirectTo: "/auth/update-password",
      }),
    );
    if (error) {
      const message = authErrorMessage(error);
      toast.error(message);
      setError("root", { message });
      return;
    }
    toast.success(AUTH_TEXT.resetSuccess);
    setSentTo(email);
  });

  if (sentTo) {
    return (
      <AuthLayout
        title={T.sentTitle}
        documentTitle={T.title}
        icon={
          <div className="flex size-12 items-center justify-center rounded-full bg-accent text-primary">
            <MailCheck className="size-6" aria-hidden />
          </div>
        }
      >
        <div className="flex flex-col gap-6">
          <div role="status" className="-mt-2 space-y-3 text-sm leading-relaxed text-muted-foreground">
            <p>
              If an account exists for <span className="font-medium text-foreground [overflow-wrap:anywhere]">{sentTo}</span>, we've sent it a link to
              reset the password.
            </p>
            <p>{T.sentExpiry}</p>
          </div>
          <div className="flex flex-col gap-3">
            <Button asChild size="lg" className="w-full">
              <Link to="/auth/login">
                <ArrowLeft aria-hidden />
                {T.backToSignIn}
              </Link>
            </Button>
            <Button
              variant="ghost"
              className="w-full text-muted-foreground"
              onClick={() => {
                setSentTo(null);
                clearErrors();
              }}
            >
              {T.useAnotherAddress}
            </Button>
          </div>
        </div>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title={T.title}
      subtitle={T.subtitle}
      footer={
        <>
          {T.rememberIt}{" "}
          <Link to="/auth/login" className="font-medium text-primary hover:underline">
            {T.backToSignIn}
          </Link>
        </>
      }
    >
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-5">
        <FormField id="email" label="Email" error={fieldError}>
          <Input
            id="email"
            type="email"
            autoComplete="email"
            inputMode="email"
            placeholder="you@example.com"
            required
            autoFocus
            {...describedBy("email", fieldError)}
            {...register("email")}
          />
        </FormField>
        {errors.root?.message && <FormAlert kind="error">{errors.root.message}</FormAlert>}
        <AuthSubmit submitting={isSubmitting}>{T.submit}</AuthSubmit>
      </form>
    </AuthLayout>
  );
}
