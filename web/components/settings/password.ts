// The change-password form's own checks, run before the request.
import { PASSWORD_MIN_LENGTH } from "../../../common/limits";
import { SETTINGS_TEXT } from "../../../common/texts";

const T = SETTINGS_TEXT.password;

export interface PasswordChange {
  current: string;
  next: string;
  confirm: string;
}

export type PasswordErrors = Partial<Record<keyof PasswordChange, string>>;

export function validatePasswordChange(values: PasswordChange): PasswordErrors {
  const errors: PasswordErrors = {};
  if (!values.current) errors.current = T.currentRequired;
  if (values.next.length < PASSWORD_MIN_LENGTH) errors.next = T.tooShort(PASSWORD_MIN_LENGTH);
  else if (values.confirm !== values.next) errors.confirm = T.mismatch;
  return errors;
}
