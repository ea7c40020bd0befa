// Turns better-auth's { code, status, message } errors into what the auth screens show. Decided by
// code and status, never by the message text; the server's message is only ever displayed.
import { AUTH_SCREEN_TEXT, AUTH_TEXT } from "../../common/texts";

export interface AuthErrorLike {
  code?: string | undefined;
  status?: number | undefined;
  message?: string | undefined;
}

/** The message for a toast and the inline alert of a failed sign-in, sign-up or reset request. */
export function authErrorMessage(error: AuthErrorLike | null | undefined): string {
  if (error?.status === 429) return AUTH_SCREEN_TEXT.login.tooManyAttempts;
  if (error?.code === "EMAIL_NOT_VERIFIED") return AUTH_SCREEN_TEXT.login.emailNotVerified;
  const message = error?.message?.trim();
  return message ? message : AUTH_TEXT.unexpectedError;
}

/** A reset token the server no longer accepts: the screen offers a new link instead of the form. */
export function isInvalidResetToken(error: AuthErrorLike | null | undefined): boolean {
  return error?.code === "INVALID_TOKEN" || error?.code === "TOKEN_EXPIRED";
}

export type LoginNotice = { kind: "success" | "error"; message: string } | null;

/**
 * What the login page says on arrival. The confirmation link returns to /auth/login?verified=1;
 * when the token is bad better-auth appends &error=invalid_token (or token_expired), so the error
 * wins over `verified`.
 */
export function loginNoticeFor(params: URLSearchParams): LoginNotice {
  if (params.get("error")) return { kind: "error", message: AUTH_SCREEN_TEXT.login.verifyLinkInvalid };
  if (params.get("verified") === "1") return { kind: "success", message: AUTH_SCREEN_TEXT.login.verified };
  return null;
}

/** better-auth answers HTTP errors as { error }, but a dropped connection throws: make both a value. */
export async function settleAuthCall<T extends { error: unknown }>(call: Promise<T>): Promise<T | { data: null; error: AuthErrorLike }> {
  try {
    return await call;
  } catch {
    return {
      data: null,
      error: {
        status: 0,
        message: "Cannot reach the server. Check your connection and try again.",
      },
    };
  }
}
