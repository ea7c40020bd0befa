import { describe, expect, it } from "vitest";
import { formatIp, sessionAddress, sessionTitle } from "./sessions";

describe("formatIp", () => {
  it.each([
    ["203.0.113.9", "203.0.113.9"],
    ["0000:0000:0000:0000:0000:0000:0000:0000", "::"],
    ["0000:0000:0000:0000:0000:0000:0000:0001", "::1"],
    ["2001:0db8:0000:0000:0000:ff00:0042:8329", "2001:db8::ff00:42:8329"],
    ["2001:0DB8:0000:0001:0000:0000:0000:0001", "2001:db8:0:1::1"],
    ["2001:db8:1:2:3:4:5:6", "2001:db8:1:2:3:4:5:6"],
    ["2001:db8::1", "2001:db8::1"],
    ["::ffff:192.0.2.1", "::ffff:192.0.2.1"],
  ])("%s → %s", (input, expected) => {
    expect(formatIp(input)).toBe(expected);
  });
});

describe("sessionTitle", () => {
  it("names the browser and, when known, the system", () => {
    expect(sessionTitle({ browser: "Chrome 131", os: "macOS" })).toBe("Chrome 131 on macOS");
    expect(sessionTitle({ browser: "Unknown browser", os: null })).toBe("Unknown browser");
  });
});

describe("sessionAddress", () => {
  it("hides a missing or all-zero address", () => {
    expect(sessionAddress(null)).toBeNull();
    expect(sessionAddress("0000:0000:0000:0000:0000:0000:0000:0000")).toBeNull();
    expect(sessionAddress("0.0.0.0")).toBeNull();
    expect(sessionAddress("2001:0db8:0001:0002:0000:0000:0000:0000")).toBe("2001:db8:1:2::");
  });
});
