import { describe, expect, it } from "vitest";
import { base32Decode, parseTotpUri, totp, totpFromUri } from "./totp";

// RFC 6238, Appendix B: the SHA-1 key is the ASCII string "12345678901234567890".
const RFC_SECRET = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";

describe("TOTP test helper", () => {
  it("decodes base32", () => {
    expect(base32Decode(RFC_SECRET).toString("ascii")).toBe("12345678901234567890");
    expect(base32Decode("mzxw6ytboi").toString("ascii")).toBe("foobar");
  });

  it.each([
    [59, "94287082"],
    [1111111109, "07081804"],
    [1111111111, "14050471"],
    [1234567890, "89005924"],
    [2000000000, "69279037"],
    [20000000000, "65353130"],
  ])("matches RFC 6238's SHA-1 vector at %i s", (seconds, code) => {
    expect(totp(RFC_SECRET, { time: seconds * 1000, digits: 8 })).toBe(code);
  });

  it("reads an otpauth:// URI", () => {
    const uri = `otpauth://totp/Berth:ada%40example.com?secret=${RFC_SECRET}&issuer=Berth&digits=6&period=30`;
    expect(parseTotpUri(uri)).toEqual({ secret: RFC_SECRET, period: 30, digits: 6, issuer: "Berth", label: "Berth:ada@example.com" });
    expect(totpFromUri(uri, 59_000)).toBe("287082");
  });
});
