import { describe, expect, it } from "vitest";
import { PASSWORD_MIN_LENGTH } from "../../../common/limits";
import { SETTINGS_TEXT } from "../../../common/texts";
import { validatePasswordChange } from "./password";

const T = SETTINGS_TEXT.password;
const long = "x".repeat(PASSWORD_MIN_LENGTH);

describe("validatePasswordChange", () => {
  it("passes a complete, matching change", () => {
    expect(validatePasswordChange({ current: "old", next: long, confirm: long })).toEqual({});
  });
  it("asks for the current password", () => {
    expect(validatePasswordChange({ current: "", next: long, confirm: long })).toEqual({ current: T.currentRequired });
  });
  it("refuses a short new password, at the shared minimum", () => {
    const short = "x".repeat(PASSWORD_MIN_LENGTH - 1);
    expect(validatePasswordChange({ current: "old", next: short, confirm: short })).toEqual({ next: T.tooShort(PASSWORD_MIN_LENGTH) });
  });
  it("refuses a confirmation that differs", () => {
    expect(validatePasswordChange({ current: "old", next: long, confirm: `${long}!` })).toEqual({ confirm: T.mismatch });
  });
});
