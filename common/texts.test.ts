import { describe, expect, it } from "vitest";
import { greetingFor } from "./texts";
import { isAppRoute, isDashboardPath } from "./routes";

const at = (hour: number, minute = 0) => new Date(2026, 0, 15, hour, minute);

describe("greetingFor", () => {
  it.each([
    [at(0), "Good morning, Ada"],
    [at(11, 59), "Good morning, Ada"],
    [at(12), "Good afternoon, Ada"],
    [at(17, 59), "Good afternoon, Ada"],
    [at(18), "Good evening, Ada"],
    [at(23, 59), "Good evening, Ada"],
  ])("at %s says %s", (date, expected) => {
    expect(greetingFor(date, "Ada Lovelace")).toBe(expected);
  });

  it("says 'there' without a name", () => {
    expect(greetingFor(at(9), null)).toBe("Good morning, there");
    expect(greetingFor(at(9), "   ")).toBe("Good morning, there");
  });
});

describe("routes", () => {
  it("knows the screens", () => {
    expect(isAppRoute("/")).toBe(true);
    expect(isAppRoute("/dashboard/")).toBe(true);
    expect(isAppRoute("/auth/login")).toBe(true);
    expect(isAppRoute("/dashboard/domains")).toBe(true);
    expect(isAppRoute("/auth/nope")).toBe(false);
    expect(isAppRoute("/dashboard/nope")).toBe(false);
  });
  it("tells dashboard paths", () => {
    expect(isDashboardPath("/dashboard")).toBe(true);
    expect(isDashboardPath("/dashboard/x")).toBe(true);
    expect(isDashboardPath("/dashboards")).toBe(false);
  });
});
