import { useState, type FormEvent } from "react";
import { Link, useNavigate } from "react-router";
import { toast } from "sonner";
import { AUTH_SCREEN_TEXT, AUTH_TEXT } from "../../../common/texts";
import { AuthSubmit } from "../../components/auth/AuthSubmit";
import { AuthLayout } from "../../components/auth/AuthLayout";
import { FormAlert } from "../../components/auth/FormAlert";
import { FormField, describedBy } from "../../components/auth/FormField";
import {
  validateSignup,
  type FormErrors,
  type SignupField,
} from "../../components/auth/validation";
import { Checkbox } from "../../components/ui/checkbox";
import { FieldError } from "../../components/ui/field-error";
import { Input } from "../../components/ui/input";
import { Label } from "../../components/ui/label";
import { PasswordInput } from "../../components/ui/password-input";
import { authClient } from "../../lib/auth-client";
import { settleAuthCall, authErrorMessage } from "../../lib/auth-errors";

const T = AUTH_SCREEN_TEXT.signup;
// The confirmation link brings the user back to sign in, where the page says the address is confirmed.
const VERIFIED_CALLBACK = "/auth/login?verified=1";
const FIELD_ORDER: SignupField[] = ["fullName", "email", "password", "terms"];

export function Signup() {
  const navigate = useNavigate();
  const [fullName, setFullName] = useState("");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [terms, setTerms] = useState(false);
  const [errors, setErrors] = useState<FormErrors<SignupField>>({});
  const [submitting, setSubmitting] = useState(false);
  const fieldError = (field: SignupField) => errors.fields?.[field];
  const missing = errors.form === AUTH_TEXT.missingCredentials;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = validateSignup({ fullName, email, password, terms });
    setErrors(found);
    const first = FIELD_ORDER.find(
      (f) =>
        found.fields?.[f] ||
        (found.form && f === (email.trim() ? "password" : "email")),
    );
    if (first) {
      document.getElementById(first)?.focus();
      return;
    }
    setSubmitting(true);
    const { error } = await settleAuthCall(
      authClient.signUp.email({
        name: fullName.trim(),
        email: email.trim(),
        password,
        callbackURL: VERIFIED_CALLBACK,
      }),
    );
    setSubmitting(false);
    if (error) {
      const message = authErrorMessage(error);
      toast.error(message);
      setErrors({ form: message });
      return;
    }
    toast.success(AUTH_TEXT.signupSuccess);
    void navigate("/auth/login");
  }

  return (
    <AuthLayout
      title={T.title}
      subtitle={T.subtitle}
      documentTitle="Sign up"
      footer={
        <>
          {T.haveAccount}{" "}
          <Link
            to="/auth/login"
            className="font-medium text-primary hover:underline"
          >
            {T.signInLink}
          </Link>
        </>
      }
    >
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-5">
        <FormField
          id="fullName"
          label="Full Name"
          error={fieldError("fullName")}
        >
          <Input
            id="fullName"
            autoComplete="name"
            placeholder="Ada Lovelace"
            required
            autoFocus
            value={fullName}
            onChange={(e) => setFullName(e.target.value)}
            {...describedBy("fullName", fieldError("fullName"))}
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
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            {...describedBy("email", fieldError("email"))}
            aria-invalid={
              fieldError("email") || (missing && !email.trim())
                ? true
                : undefined
            }
          />
        </FormField>
        <FormField
          id="password"
          label="Password"
          hint={AUTH_TEXT.passwordHint}
          error={fieldError("password")}
        >
          <PasswordInput
            id="password"
            autoComplete="new-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            {...describedBy("password", fieldError("password"), true)}
            aria-invalid={
              fieldError("password") || (missing && !password)
                ? true
                : undefined
            }
          />
        </FormField>
        <div className="flex flex-col gap-2">
          <div className="flex items-start gap-2.5">
            <Checkbox
              id="terms"
              className="mt-0.5"
              required
              checked={terms}
              onCheckedChange={(v) => setTerms(v === true)}
              {...describedBy("terms", fieldError("terms"))}
            />
            <Label
              htmlFor="terms"
              className="cursor-pointer font-normal leading-snug text-muted-foreground"
            >
              <span>
                I agree to the{" "}
                <Link
                  to="/terms"
                  target="_blank"
                  className="font-medium text-foreground underline-offset-4 hover:underline"
                >
                  Terms of Service
                </Link>{" "}
                and{" "}
                <Link
                  to="/privacy"
                  target="_blank"
                  className="font-medium text-foreground underline-offset-4 hover:underline"
                >
                  Privacy Policy
                </Link>
              </span>
            </Label>
          </div>
          <FieldError id="terms-error" message={fieldError("terms")} />
        </div>
        {errors.form && <FormAlert kind="error">{errors.form}</FormAlert>}
        <AuthSubmit submitting={submitting}>{T.submit}</AuthSubmit>
      </form>
    </AuthLayout>
  );
}
