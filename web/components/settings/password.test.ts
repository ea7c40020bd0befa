import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { PASSWORD_MIN_LENGTH } from "../../../common/limits";
import { SETTINGS_TEXT } from "../../../common/texts";
import { CurrentPasswordForm, PasswordChangeForm } from "./password";

const T = SETTINGS_TEXT.password;
const long = "x".repeat(PASSWORD_MIN_LENGTH);

function messages(schema: z.ZodType, values: unknown): Record<string, string> {
  const result = schema.safeParse(values);
  if (result.success) return {};
  const out: Record<string, string> = {};
  for (const issue of result.error.issues) out[issue.path.join(".")] ??= issue.message;
  return out;
}

describe("PasswordChangeForm", () => {
  it("passes a complete, matching change", () => {
    expect(messages(PasswordChangeForm, { current: "old", next: long, confirm: long })).toEqual({});
  });
  it("asks for the current password", () => {
    expect(messages(PasswordChangeForm, { current: "", next: long, confirm: long })).toEqual({ current: T.currentRequired });
  });
  it("refuses a short new password, at the shared minimum, before comparing the confirmation", () => {
    const short = "x".repeat(PASSWORD_MIN_LENGTH - 1);
    expect(messages(PasswordChangeForm, { current: "old", next: short, confirm: "" })).toEqual({ next: T.tooShort(PASSWORD_MIN_LENGTH) });
  });
  it("refuses a confirmation that differs", () => {
    expect(messages(PasswordChangeForm, { current: "old", next: long, confirm: `${long}!` })).toEqual({ confirm: T.mismatch });
  });
});

describe("CurrentPasswordForm", () => {
  it("asks for the password", () => {
    expect(messages(CurrentPasswordForm, { password: "" })).toEqual({ password: T.currentRequired });
    expect(messages(CurrentPasswordForm, { password: "x" })).toEqual({});
  });
});
