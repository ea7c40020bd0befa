import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { AUTH_SCREEN_TEXT, AUTH_TEXT, TWO_FACTOR_SCREEN_TEXT } from "../../../common/texts";
import { EmailForm, LoginForm, ResetPasswordForm, SignupForm, twoFactorForm } from "./authForms";

/** Each path's first message, as react-hook-form shows them ("root": the form's own). */
function messages(schema: z.ZodType, values: unknown): Record<string, string> {
  const result = schema.safeParse(values);
  if (result.success) return {};
  const out: Record<string, string> = {};
  for (const issue of result.error.issues) out[issue.path.join(".")] ??= issue.message;
  return out;
}

describe("LoginForm", () => {
  it.each([
    ["", "secret"],
    ["ada@example.com", ""],
    ["   ", "secret"],
    ["", ""],
  ])("asks for both when email=%j password=%j", (email, password) => {
    expect(messages(LoginForm, { email, password, rememberMe: false })).toEqual({ root: AUTH_TEXT.missingCredentials });
  });
  it("accepts both present, the address trimmed", () => {
    expect(LoginForm.parse({ email: " ada@example.com ", password: "x", rememberMe: true })).toEqual({
      email: "ada@example.com",
      password: "x",
      rememberMe: true,
    });
  });
});

describe("SignupForm", () => {
  const valid = { fullName: "Ada Lovelace", email: "ada@example.com", password: "analytical", terms: true };
  it("accepts a complete form", () => {
    expect(messages(SignupForm, valid)).toEqual({});
  });
  it("needs email and password, with one exact message for the whole form", () => {
    expect(messages(SignupForm, { ...valid, email: "" })).toEqual({ root: AUTH_TEXT.missingCredentials });
    expect(messages(SignupForm, { ...valid, password: "" })).toEqual({ root: AUTH_TEXT.missingCredentials });
  });
  it("marks each field, and the form too when a credential is missing", () => {
    expect(messages(SignupForm, { fullName: " ", email: "ada@", password: "short", terms: false })).toEqual({
      fullName: AUTH_SCREEN_TEXT.signup.fullNameRequired,
      email: AUTH_SCREEN_TEXT.signup.emailInvalid,
      password: AUTH_TEXT.passwordHint,
      terms: AUTH_SCREEN_TEXT.signup.termsRequired,
    });
    expect(messages(SignupForm, { fullName: "", email: "", password: "", terms: false })).toEqual({
      fullName: AUTH_SCREEN_TEXT.signup.fullNameRequired,
      terms: AUTH_SCREEN_TEXT.signup.termsRequired,
      root: AUTH_TEXT.missingCredentials,
    });
  });
});

describe("EmailForm", () => {
  it("requires a plausible address", () => {
    expect(messages(EmailForm, { email: "" })).toEqual({ email: AUTH_SCREEN_TEXT.emailRequired });
    expect(messages(EmailForm, { email: "nope" })).toEqual({ email: AUTH_SCREEN_TEXT.signup.emailInvalid });
    expect(EmailForm.parse({ email: " ada@example.com " })).toEqual({ email: "ada@example.com" });
  });
});

describe("ResetPasswordForm", () => {
  it("checks length and match", () => {
    expect(messages(ResetPasswordForm, { password: "longenough", confirm: "longenough" })).toEqual({});
    expect(messages(ResetPasswordForm, { password: "short", confirm: "short" })).toEqual({ password: AUTH_TEXT.passwordHint });
    expect(messages(ResetPasswordForm, { password: "longenough", confirm: "longenougH" })).toEqual({
      confirm: AUTH_SCREEN_TEXT.update.mismatch,
    });
  });
});

describe("twoFactorForm", () => {
  const empty = { code: "", backupCode: "", trustDevice: false };
  it("asks the app's six digits, or a backup code, by mode", () => {
    expect(messages(twoFactorForm("app"), { ...empty, code: "12345" })).toEqual({ code: TWO_FACTOR_SCREEN_TEXT.codeRequired });
    expect(messages(twoFactorForm("backup"), { ...empty, backupCode: "  " })).toEqual({
      backupCode: TWO_FACTOR_SCREEN_TEXT.backupRequired,
    });
  });
  it("sends the code of the mode in use, a backup code trimmed", () => {
    expect(twoFactorForm("app").parse({ ...empty, code: "123456", backupCode: "x" })).toEqual({ code: "123456", trustDevice: false });
    expect(twoFactorForm("backup").parse({ ...empty, code: "1", backupCode: " abcde-fghij ", trustDevice: true })).toEqual({
      code: "abcde-fghij",
      trustDevice: true,
    });
  });
});
