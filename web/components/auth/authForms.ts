// The auth screens' forms as zod schemas for react-hook-form. The server (better-auth) checks
// everything again; these only save a round trip and put the message next to the field. A
// message about the whole form (both credentials are needed) goes to the path "root", which
// react-hook-form reports as `errors.root`.
import { z } from "zod";
import { AUTH_SCREEN_TEXT, AUTH_TEXT, TWO_FACTOR_SCREEN_TEXT } from "../../../common/texts";
import { PASSWORD_MIN_LENGTH } from "../../../common/limits";

// Deliberately loose: the server has the last word; this catches typos like a missing "@".
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** When the e-mail or the password is missing: one exact message about both, for the whole form, not one per field. */
function bothCredentials(values: { email: string; password: string }, ctx: z.RefinementCtx): void {
  if (!values.email.trim() || !values.password) ctx.addIssue({ code: "custom", path: ["root"], message: AUTH_TEXT.missingCredentials });
}

export const LoginForm = z
  .object({ email: z.string(), password: z.string(), rememberMe: z.boolean() })
  .superRefine(bothCredentials)
  .transform((values) => ({ ...values, email: values.email.trim() }));
export type LoginInput = z.input<typeof LoginForm>;
export type LoginForm = z.output<typeof LoginForm>;

export const SignupForm = z
  .object({
    fullName: z.string().trim().min(1, AUTH_SCREEN_TEXT.signup.fullNameRequired),
    // A blank e-mail or password is the whole form's message, not the field's.
    email: z
      .string()
      .trim()
      .refine((email) => !email || EMAIL_SHAPE.test(email), AUTH_SCREEN_TEXT.signup.emailInvalid),
    password: z.string().refine((password) => !password || password.length >= PASSWORD_MIN_LENGTH, AUTH_TEXT.passwordHint),
    terms: z.boolean().refine(Boolean, AUTH_SCREEN_TEXT.signup.termsRequired),
  })
  .superRefine(bothCredentials);
export type SignupInput = z.input<typeof SignupForm>;
export type SignupForm = z.output<typeof SignupForm>;

/** Forgot password: the address to send the link to. */
export const EmailForm = z.object({
  email: z.string().trim().min(1, AUTH_SCREEN_TEXT.emailRequired).regex(EMAIL_SHAPE, AUTH_SCREEN_TEXT.signup.emailInvalid),
});
export type EmailInput = z.input<typeof EmailForm>;
export type EmailForm = z.output<typeof EmailForm>;

/** The reset link's form: a new password, typed twice. */
export const ResetPasswordForm = z
  .object({
    password: z.string().min(PASSWORD_MIN_LENGTH, AUTH_TEXT.passwordHint),
    confirm: z.string(),
  })
  .superRefine((values, ctx) => {
    if (values.confirm !== values.password) ctx.addIssue({ code: "custom", path: ["confirm"], message: AUTH_SCREEN_TEXT.update.mismatch });
  });
export type ResetPasswordInput = z.input<typeof ResetPasswordForm>;
export type ResetPasswordForm = z.output<typeof ResetPasswordForm>;

export type TwoFactorMode = "app" | "backup";

/** The second step of signing in: the six digits from the app, or one backup code. */
export function twoFactorForm(mode: TwoFactorMode) {
  return z
    .object({ code: z.string(), backupCode: z.string(), trustDevice: z.boolean() })
    .superRefine((values, ctx) => {
      if (mode === "app" && values.code.length !== 6) ctx.addIssue({ code: "custom", path: ["code"], message: TWO_FACTOR_SCREEN_TEXT.codeRequired });
      if (mode === "backup" && !values.backupCode.trim())
        ctx.addIssue({ code: "custom", path: ["backupCode"], message: TWO_FACTOR_SCREEN_TEXT.backupRequired });
    })
    .transform((values) => ({
      code: mode === "app" ? values.code : values.backupCode.trim(),
      trustDevice: values.trustDevice,
    }));
}
export type TwoFactorInput = z.input<ReturnType<typeof twoFactorForm>>;
