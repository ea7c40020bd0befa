// Pure helpers of the two-factor screens: codes, the setup key inside an otpauth:// URI, the
// backup-code file, the setup's code form, and the message for a refused request.
import { z } from "zod";
import { AUTH_SCREEN_TEXT, AUTH_TEXT, SETTINGS_TEXT } from "../../../common/texts";
import type { AuthErrorLike } from "../../lib/authErrors";

export const OTP_LENGTH = 6;

/** The setup's proof that the app works: its current six digits. */
export const VerifyCodeForm = z.object({
  code: z.string().length(OTP_LENGTH, SETTINGS_TEXT.twoFactor.codeInvalid),
});
export type VerifyCode = z.infer<typeof VerifyCodeForm>;

/** Digits only, at most six: what a pasted "123 456" or "123-456" becomes. */
export function sanitizeOtp(input: string): string {
  return input.replace(/\D+/g, "").slice(0, OTP_LENGTH);
}

/** The base32 secret of an otpauth:// URI, or null when there is none. */
export function secretFromTotpUri(uri: string): string | null {
  try {
    const secret = new URL(uri).searchParams.get("secret");
    return secret ? secret.toUpperCase() : null;
  } catch {
    return null;
  }
}

/** The secret in groups of four, as authenticator apps show and accept it. */
export function groupSecret(secret: string): string {
  return secret.match(/.{1,4}/g)?.join(" ") ?? secret;
}

/** The text of the downloadable backup-code file. */
export function backupCodesFile(codes: readonly string[], account: string, appUrl: string): string {
  return [
    `Berth backup codes for ${account}`,
    appUrl,
    "",
    "Each code signs you in once, in place of a code from your authenticator app.",
    "",
    ...codes,
    "",
  ].join("\n");
}

/** A refused two-factor or password request, as one sentence. */
export function twoFactorErrorMessage(error: AuthErrorLike | null | undefined): string {
  if (error?.status === 429) return AUTH_SCREEN_TEXT.login.tooManyAttempts;
  const message = error?.message?.trim();
  return message ? message : AUTH_TEXT.unexpectedError;
}
