import { describe, expect, it } from "vitest";
import { impossibleHost, normalizeHost } from "./host";

/** A name of `length` characters under .localhost, in labels of at most 63. */
function nameOf(length: number): string {
  const suffix = ".localhost";
  let name = "";
  while (name.length < length - suffix.length)
    name += (name ? "." : "") + "a".repeat(Math.min(63, length - suffix.length - name.length - (name ? 1 : 0)));
  return name + suffix;
}

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
