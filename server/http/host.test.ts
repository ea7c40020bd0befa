import { describe, expect, it } from "vitest";
import { impossibleHost, normalizeHost } from "./host";
import { nameOf } from "../test/hostNames";

describe("host names", () => {
  it.each([
    [nameOf(253), false],
    [`${nameOf(253)}.:65535`, false],
    [nameOf(254), true],
    [`${"a".repeat(63)}.localhost`, false],
    [`${"a".repeat(64)}.localhost`, true],
    [`b.${"a".repeat(64)}.localhost:80`, true],
    [`${nameOf(253)}:1234567`, true],
    [`${nameOf(100)}:12345`, false],
    ["[::1]:8080", false],
    [undefined, false],
  ])("knows that no DNS name is %s: %s", (host, impossible) => {
    if (host !== undefined) expect(host.replace(/:\d+$/, "").replace(/\.$/, "").length).toBeLessThanOrEqual(254);
    expect(impossibleHost(host)).toBe(impossible);
  });

  it("normalizes ports, case and trailing dots", () => {
    expect(normalizeHost("Foo.Example:443")).toBe("foo.example");
    expect(normalizeHost("[::1]:80")).toBe("[::1]");
    expect(normalizeHost(undefined)).toBeUndefined();
  });
});
