import { describe, expect, it } from "vitest";
import { authErrorMessage, isInvalidResetToken, loginNoticeFor } from "./authErrors";
import { AUTH_SCREEN_TEXT, AUTH_TEXT } from "../../common/texts";

describe("authErrorMessage", () => {
  it.each([
    [
      "the server's message",
      {
        code: "INVALID_EMAIL_OR_PASSWORD",
        status: 401,
        message: "Invalid email or password",
      },
      "Invalid email or password",
    ],
    ["the fallback when there is no message", { status: 500 }, AUTH_TEXT.unexpectedError],
    ["the fallback for a blank message", { message: "  " }, AUTH_TEXT.unexpectedError],
    ["the fallback for no error at all", null, AUTH_TEXT.unexpectedError],
    ["the rate-limit text on 429", { status: 429, message: "Too many requests. Please try again later." }, AUTH_SCREEN_TEXT.login.tooManyAttempts],
    [
      "the re-sent confirmation note",
      {
        code: "EMAIL_NOT_VERIFIED",
        status: 403,
        message: "Email not verified",
      },
      AUTH_SCREEN_TEXT.login.emailNotVerified,
    ],
  ])("gives %s", (_, error, expected) => {
    expect(authErrorMessage(error)).toBe(expected);
  });
});

describe("isInvalidResetToken", () => {
  it("recognises the token codes only", () => {
    expect(isInvalidResetToken({ code: "INVALID_TOKEN" })).toBe(true);
    expect(isInvalidResetToken({ code: "TOKEN_EXPIRED" })).toBe(true);
    expect(isInvalidResetToken({ code: "PASSWORD_TOO_SHORT" })).toBe(false);
    expect(isInvalidResetToken(null)).toBe(false);
  });
});

describe("loginNoticeFor", () => {
  it.each([
    ["", null],
    ["verified=1", { kind: "success", message: AUTH_SCREEN_TEXT.login.verified }],
    ["verified=1&error=invalid_token", { kind: "error", message: AUTH_SCREEN_TEXT.login.verifyLinkInvalid }],
    ["error=token_expired", { kind: "error", message: AUTH_SCREEN_TEXT.login.verifyLinkInvalid }],
    ["verified=0", null],
  ])("?%s", (query, expected) => {
    expect(loginNoticeFor(new URLSearchParams(query))).toEqual(expected);
  });
});
