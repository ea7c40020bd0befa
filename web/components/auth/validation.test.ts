import { describe, expect, it } from "vitest";
import {
  hasErrors,
  validateEmail,
  validateLogin,
  validateNewPassword,
  validateSignup,
} from "./validation";
import { AUTH_SCREEN_TEXT, AUTH_TEXT } from "../../../common/texts";

describe("validateLogin", () => {
  it.each([
    ["", "secret"],
    ["ada@example.com", ""],
    ["   ", "secret"],
    ["", ""],
  ])("asks for both when email=%j password=%j", (email, password) => {
    expect(validateLogin({ email, password })).toEqual({
      form: AUTH_TEXT.missingCredentials,
    });
  });
  it("accepts both present", () => {
    expect(
      hasErrors(validateLogin({ email: "ada@example.com", password: "x" })),
    ).toBe(false);
  });
});

describe("validateSignup", () => {
  const valid = {
    fullName: "Ada Lovelace",
    email: "ada@example.com",
    password: "analytical",
    terms: true,
  };
  it("accepts a complete form", () => {
    expect(validateSignup(valid)).toEqual({});
  });
  it("needs email and password, with the spec's message", () => {
    expect(validateSignup({ ...valid, email: "" }).form).toBe(
      AUTH_TEXT.missingCredentials,
    );
    expect(validateSignup({ ...valid, password: "" }).form).toBe(
      AUTH_TEXT.missingCredentials,
    );
  });
  it("marks each field", () => {
    const errors = validateSignup({
      fullName: " ",
      email: "ada@",
      password: "short",
      terms: false,
    });
    expect(errors.fields).toEqual({
      fullName: AUTH_SCREEN_TEXT.signup.fullNameRequired,
      email: AUTH_SCREEN_TEXT.signup.emailInvalid,
      password: AUTH_TEXT.passwordHint,
      terms: AUTH_SCREEN_TEXT.signup.termsRequired,
    });
  });
});

describe("validateEmail", () => {
  it("requires a plausible address", () => {
    expect(hasErrors(validateEmail(""))).toBe(true);
    expect(hasErrors(validateEmail("nope"))).toBe(true);
    expect(validateEmail(" ada@example.com ")).toEqual({});
  });
});

describe("validateNewPassword", () => {
  it("checks length and match", () => {
    expect(
      validateNewPassword({ password: "longenough", confirm: "longenough" }),
    ).toEqual({});
    expect(
      validateNewPassword({ password: "short", confirm: "short" }).fields,
    ).toEqual({ password: AUTH_TEXT.passwordHint });
    expect(
      validateNewPassword({ password: "longenough", confirm: "longenougH" })
        .fields,
    ).toEqual({
      confirm: AUTH_SCREEN_TEXT.update.mismatch,
    });
  });
});
