// Client-side checks of the auth forms. The server checks everything again; these only save a
// round trip and put the message next to the field. Each returns an empty object when valid.
import { AUTH_SCREEN_TEXT, AUTH_TEXT } from "../../../common/texts";
import { PASSWORD_MIN_LENGTH } from "../../../common/limits";

export interface FormErrors<Field extends string> {
  /** A message for the whole form, shown in the alert box above the button. */
  form?: string;
  fields?: Partial<Record<Field, string>>;
}

// Deliberately loose: the server has the last word; this catches typos like a missing "@".
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function validateLogin(values: {
  email: string;
  password: string;
}): FormErrors<"email" | "password"> {
  if (!values.email.trim() || !values.password)
    return { form: AUTH_TEXT.missingCredentials };
  return {};
}

export type SignupField = "fullName" | "email" | "password" | "terms";

export function validateSignup(values: {
  fullName: string;
  email: string;
  password: string;
  terms: boolean;
}): FormErrors<SignupField> {
  const fields: Partial<Record<SignupField, string>> = {};
  if (!values.fullName.trim())
    fields.fullName = AUTH_SCREEN_TEXT.signup.fullNameRequired;
  if (values.email.trim() && !EMAIL_SHAPE.test(values.email.trim()))
    fields.email = AUTH_SCREEN_TEXT.signup.emailInvalid;
  if (values.password && values.password.length < PASSWORD_MIN_LENGTH)
    fields.password = AUTH_TEXT.passwordHint;
  if (!values.terms) fields.terms = AUTH_SCREEN_TEXT.signup.termsRequired;
  const form =
    !values.email.trim() || !values.password
      ? AUTH_TEXT.missingCredentials
      : undefined;
  return {
    ...(form ? { form } : {}),
    ...(Object.keys(fields).length > 0 ? { fields } : {}),
  };
}

export function validateEmail(email: string): FormErrors<"email"> {
  if (!email.trim())
    return { fields: { email: AUTH_SCREEN_TEXT.emailRequired } };
  if (!EMAIL_SHAPE.test(email.trim()))
    return { fields: { email: AUTH_SCREEN_TEXT.signup.emailInvalid } };
  return {};
}

export type NewPasswordField = "password" | "confirm";

export function validateNewPassword(values: {
  password: string;
  confirm: string;
}): FormErrors<NewPasswordField> {
  const fields: Partial<Record<NewPasswordField, string>> = {};
  if (values.password.length < PASSWORD_MIN_LENGTH)
    fields.password = AUTH_TEXT.passwordHint;
  if (values.confirm !== values.password)
    fields.confirm = AUTH_SCREEN_TEXT.update.mismatch;
  return Object.keys(fields).length > 0 ? { fields } : {};
}

export function hasErrors<Field extends string>(
  errors: FormErrors<Field>,
): boolean {
  return Boolean(errors.form) || Object.keys(errors.fields ?? {}).length > 0;
}
