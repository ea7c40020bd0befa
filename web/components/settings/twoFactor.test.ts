import { describe, expect, it } from "vitest";
import { AUTH_SCREEN_TEXT, SETTINGS_TEXT } from "../../../common/texts";
import { backupCodesFile, groupSecret, sanitizeOtp, secretFromTotpUri, twoFactorErrorMessage, VerifyCodeForm } from "./twoFactor";

describe("sanitizeOtp", () => {
  it.each([
    ["123456", "123456"],
    ["123 456", "123456"],
    ["123-456", "123456"],
    [" 12 34 56 78", "123456"],
    ["abc", ""],
  ])("%j → %j", (input, expected) => {
    expect(sanitizeOtp(input)).toBe(expected);
  });
});

describe("secretFromTotpUri", () => {
  it("reads the base32 secret", () => {
    expect(secretFromTotpUri("otpauth://totp/Berth:ada%40example.com?secret=gezdgnbvgy3tqojq&issuer=Berth&digits=6&period=30")).toBe(
      "GEZDGNBVGY3TQOJQ",
    );
  });
  it("is null for a URI without one, or no URI", () => {
    expect(secretFromTotpUri("otpauth://totp/Berth:ada?issuer=Berth")).toBeNull();
    expect(secretFromTotpUri("not a uri")).toBeNull();
  });
});

describe("groupSecret", () => {
  it("groups by four", () => {
    expect(groupSecret("GEZDGNBVGY3TQOJQA")).toBe("GEZD GNBV GY3T QOJQ A");
  });
});

describe("backupCodesFile", () => {
  it("lists every code on its own line", () => {
    const text = backupCodesFile(["abcde-12345", "fghij-67890"], "ada@example.com", "http://localhost:8080");
    expect(text.split("\n")).toEqual(expect.arrayContaining(["abcde-12345", "fghij-67890", "Berth backup codes for ada@example.com"]));
  });
});

describe("twoFactorErrorMessage", () => {
  it("says too many attempts on 429", () => {
    expect(twoFactorErrorMessage({ status: 429, message: "Too many requests" })).toBe(AUTH_SCREEN_TEXT.login.tooManyAttempts);
  });
  it("shows the server's message, else a generic one", () => {
    expect(twoFactorErrorMessage({ status: 400, message: "Invalid password" })).toBe("Invalid password");
    expect(twoFactorErrorMessage({ status: 500 })).toBe("An unexpected error occurred");
  });
});

describe("VerifyCodeForm", () => {
  it("takes six digits, and says the code is wrong otherwise", () => {
    expect(VerifyCodeForm.safeParse({ code: "123456" }).success).toBe(true);
    const short = VerifyCodeForm.safeParse({ code: "12345" });
    expect(short.error?.issues.map((issue) => issue.message)).toEqual([SETTINGS_TEXT.twoFactor.codeInvalid]);
  });
});
