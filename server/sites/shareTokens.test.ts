import { describe, expect, it } from "vitest";
import { linkIdOfToken, shareKeys, shareToken } from "./shareTokens";

const keys = shareKeys("test-secret", "http://localhost:8080");
const LINK = "0f8e2a4c-1b3d-4e5f-8a9b-0c1d2e3f4a5b";

describe("share link tokens", () => {
  it("names the link, in 45 URL-safe characters, and the same one every time", () => {
    const token = shareToken(keys, LINK);
    expect(token).toMatch(/^[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{22}$/);
    expect(shareToken(keys, LINK.toUpperCase())).toBe(token);
    expect(linkIdOfToken(keys, token)).toBe(LINK);
  });

  it("refuses every one-character change, truncation, extension and another secret's token", () => {
    const token = shareToken(keys, LINK);
    for (let i = 0; i < token.length; i++) {
      for (const c of ["A", "z", "-", "_", "."]) {
        if (token[i] === c) continue;
        expect(linkIdOfToken(keys, token.slice(0, i) + c + token.slice(i + 1)), `${i} ${c}`).toBeUndefined();
      }
    }
    expect(linkIdOfToken(keys, token.slice(0, -1))).toBeUndefined();
    expect(linkIdOfToken(keys, `${token}A`)).toBeUndefined();
    expect(linkIdOfToken(keys, "")).toBeUndefined();
    expect(linkIdOfToken(keys, `${"A".repeat(22)}.${"A".repeat(22)}`)).toBeUndefined();
    expect(linkIdOfToken(shareKeys("another secret", "http://x"), token)).toBeUndefined();
  });

  it("uses keys of their own: the token and cookie keys differ from each other and from the secret", () => {
    expect(keys.token.equals(keys.cookie)).toBe(false);
    expect(keys.token.toString()).not.toContain("test-secret");
    expect(shareKeys("s", "https://berth.example").secure).toBe(true);
  });
});
