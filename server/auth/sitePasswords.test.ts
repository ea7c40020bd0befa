import { describe, expect, it } from "vitest";
import { hashSitePassword, verifySitePassword } from "./sitePasswords";

describe("site passwords", () => {
  it("verifies the password it hashed, and no other", async () => {
    const stored = await hashSitePassword("correct horse");
    expect(stored).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(await verifySitePassword("correct horse", stored)).toBe(true);
    expect(await verifySitePassword("correct horsf", stored)).toBe(false);
    expect(await verifySitePassword("", stored)).toBe(false);
  });

  it("salts each hash, and compares passwords in one Unicode form (NFKC)", async () => {
    const [one, two] = await Promise.all([hashSitePassword("pässword"), hashSitePassword("pässword")]);
    expect(one).not.toBe(two);
    // "ä" precomposed and as "a" with a combining diaeresis are one password.
    expect(await verifySitePassword("pa\u0308ssword", one)).toBe(true);
  });

  it.each([
    ["not a hash"],
    ["scrypt$16384$8$1$c2FsdA"],
    ["bcrypt$16384$8$1$c2FsdA$aGFzaA"],
    ["scrypt$0$8$1$c2FsdA$aGFzaA"],
    ["scrypt$2097152$8$1$c2FsdA$aGFzaA"],
  ])("never matches a malformed stored hash: %s", async (stored) => {
    expect(await verifySitePassword("anything", stored)).toBe(false);
  });
});
