// The Security tab's password forms: changing the password, and confirming it before a sensitive
// change (two-factor on or off, new backup codes). better-auth checks again; these only put the
// message under its field before a request.
import { z } from "zod";
import { PASSWORD_MIN_LENGTH } from "../../../common/limits";
import { SETTINGS_TEXT } from "../../../common/texts";

const T = SETTINGS_TEXT.password;

export const PasswordChangeForm = z
  .object({
    current: z.string().min(1, T.currentRequired),
    next: z.string().min(PASSWORD_MIN_LENGTH, T.tooShort(PASSWORD_MIN_LENGTH)),
    confirm: z.string(),
  })
  .superRefine((values, ctx) => {
    // Only once the new password itself is right: one thing to fix at a time.
    if (values.next.length >= PASSWORD_MIN_LENGTH && values.confirm !== values.next)
      ctx.addIssue({ code: "custom", path: ["confirm"], message: T.mismatch });
  });
export type PasswordChange = z.infer<typeof PasswordChangeForm>;

export const CurrentPasswordForm = z.object({
  password: z.string().min(1, T.currentRequired),
});
export type CurrentPassword = z.infer<typeof CurrentPasswordForm>;
