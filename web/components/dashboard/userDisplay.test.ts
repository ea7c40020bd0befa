import { describe, expect, it } from "vitest";
import { displayName, initialFor, msToNextMinute } from "./userDisplay";

describe("displayName", () => {
  it("prefers the profile name", () => {
    expect(displayName("Ada Lovelace", "ada")).toBe("Ada Lovelace");
    expect(displayName("  ", "ada")).toBe("ada");
    expect(displayName(null, undefined)).toBe("");
  });
});

describe("initialFor", () => {
  it.each([
    ["ada lovelace", "x@example.com", "A"],
    ["", "grace@example.com", "G"],
    [null, "  zoe@example.com", "Z"],
    ["émile", null, "É"],
    [null, null, "?"],
  ])("%j / %j → %s", (name, email, expected) => {
    expect(initialFor(name, email)).toBe(expected);
  });
});

describe("msToNextMinute", () => {
  it("counts to the next whole minute", () => {
    expect(msToNextMinute(new Date(2026, 0, 1, 11, 59, 30, 500))).toBe(29_500);
    expect(msToNextMinute(new Date(2026, 0, 1, 12, 0, 0, 0))).toBe(60_000);
  });
});
