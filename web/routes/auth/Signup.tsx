import { Controller, useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { Link, useNavigate } from "react-router";
import { toast } from "sonner";
import { AUTH_SCREEN_TEXT, AUTH_TEXT } from "../../../common/texts";
import { AuthSubmit } from "../../components/auth/AuthSubmit";
import { AuthLayout } from "../../components/auth/AuthLayout";
import { FormAlert } from "../../components/auth/FormAlert";
import { FormField, describedBy } from "../../components/ui/FormField";
import { SignupForm, type SignupInput } from "../../components/auth/authForms";
import { Checkbox } from "../../components/ui/Checkbox";
import { FieldError } from "../../components/ui/FieldError";
import { Input } from "../../components/ui/Input";
import { Label } from "../../components/ui/Label";
import { PasswordInput } from "../../components/ui/PasswordInput";
import { authClient } from "../../lib/authClient";
import { settleAuthCall, authErrorMessage } from "../../lib/authErrors";

const T = AUTH_SCREEN_TEXT.signup;
// The confirmation link brings the user back to sign in, where the page says the address is confirmed.
const VERIFIED_CALLBACK = "/auth/login?verified=1";
type SignupField = keyof SignupInput;
const FIELD_ORDER: SignupField[] = ["fullName", "email", "password", "terms"];

export function Signup() {
  const navigate = useNavigate();
  const {
    register,
    control,
    handleSubmit,
    setError,
    setFocus,
    getValues,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<SignupInput, unknown, SignupForm>({
    resolver: zodResolver(SignupForm),
    defaultValues: { fullName: "", email: "", password: "", terms: false },
    shouldFocusError: false,
  });
  const fieldError = (field: SignupField) => errors[field]?.message;
  const missing = errors.root?.message === AUTH_TEXT.missingCredentials;
  const [email, password] = watch(["email", "password"]);

  const onSubmit = handleSubmit(
    async ({ fullName, email, password }) => {
      const { error } = await settleAuthCall(
        authClient.signUp.email({
          name: fullName,
          email,
          password,
          callbackURL: VERIFIED_CALLBACK,
        }),
      );
      if (error) {
        const message = authErrorMessage(error);
        toast.error(message);
        setError("root", { message });
        return;
      }
      toast.success(AUTH_TEXT.signupSuccess);
      void navigate("/auth/login");
    },
    (found) => {
      // The first field in reading order that needs attention; a missing credential counts for
      // its own field.
      const blank = getValues("email").trim() ? "password" : "email";
      const first = FIELD_ORDER.find((f) => found[f] || (found.root && f === blank));
      if (first) setFocus(first);
    },
  );

  return (
    <AuthLayout
      title={T.title}
      subtitle={T.subtitle}
      documentTitle="Sign up"
      footer={
        <>
          {T.haveAccount}{" "}
          <Link to="/auth/login" className="font-medium text-primary hover:underline">
            {T.signInLink}
          </Link>
        </>
      }
    >
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-5">
        <FormField id="fullName" label="Full Name" error={fieldError("fullName")}>
          <Input
            id="fullName"
            autoComplete="name"
            placeholder="Ada Lovelace"
            required
            autoFocus
            {...describedBy("fullName", fieldError("fullName"))}
            {...register("fullName")}
          />
        </FormField>
        <FormField id="email" label="Email" error={fieldError("email")}>
          <Input
            id="email"
            type="email"
            autoComplete="email"
            inputMode="email"
            placeholder="you@example.com"
            required
            {...describedBy("email", fieldError("email"))}
            {...register("email")}
            aria-invalid={fieldError("email") || (missing && !email.trim()) ? true : undefined}
          />
        </FormField>
        <FormField id="password" label="Password" hint={AUTH_TEXT.passwordHint} error={fieldError("password")}>
          <PasswordInput
            id="password"
            autoComplete="new-password"
            required
            {...describedBy("password", fieldError("password"), true)}
            {...register("password")}
            aria-invalid={fieldError("password") || (missing && !password) ? true : undefined}
          />
        </FormField>
        <div className="flex flex-col gap-2">
          <div className="flex items-start gap-2.5">
            <Controller
              control={control}
              name="terms"
              render={({ field }) => (
                <Checkbox
                  id="terms"
                  className="mt-0.5"
                  required
                  ref={field.ref}
                  checked={field.value}
                  onCheckedChange={(v) => field.onChange(v === true)}
                  onBlur={field.onBlur}
                  {...describedBy("terms", fieldError("terms"))}
                />
              )}
            />
            <Label htmlFor="terms" className="cursor-pointer font-normal leading-snug text-muted-foreground">
              <span>
                I agree to the{" "}
                <Link to="/terms" target="_blank" className="font-medium text-foreground underline-offset-4 hover:underline">
                  Terms of Service
                </Link>{" "}
                and{" "}
                <Link to="/privacy" target="_blank" className="font-medium text-foreground underline-offset-4 hover:underline">
                  Privacy Policy
                </Link>
              </span>
            </Label>
          </div>
          <FieldError id="terms-error" message={fieldError("terms")} />
        </div>
        {errors.root?.message && <FormAlert kind="error">{errors.root.message}</FormAlert>}
        <AuthSubmit submitting={isSubmitting}>{T.submit}</AuthSubmit>
      </form>
    </AuthLayout>
  );
}
