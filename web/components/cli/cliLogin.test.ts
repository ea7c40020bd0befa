import { describe, expect, it } from "vitest";
import { codeFromSearch, timeLeft, UserCodeForm } from "./cliLogin";

describe("the CLI sign-in page", () => {
  it("takes the link's code in any spelling, and ignores one that cannot be a code", () => {
    expect(codeFromSearch(new URLSearchParams("code=bcdf-ghjk"))).toBe("BCDF-GHJK");
    expect(codeFromSearch(new URLSearchParams("code=BCDFGHJK"))).toBe("BCDF-GHJK");
    expect(codeFromSearch(new URLSearchParams("code=nope"))).toBeNull();
    expect(codeFromSearch(new URLSearchParams(""))).toBeNull();
  });

  it("hands a typed code on formatted, and refuses a wrong one with the server's words", () => {
    expect(UserCodeForm.parse({ code: " bcdf ghjk " })).toEqual({ code: "BCDF-GHJK" });
    const wrong = UserCodeForm.safeParse({ code: "abc" });
    expect(wrong.success).toBe(false);
    expect(wrong.error?.issues[0]?.message).toBe("Enter the 8-letter code your terminal shows");
  });

  it("says how long the request has left, and nothing once it lapsed", () => {
    const now = new Date("2026-01-01T12:00:00Z");
    expect(timeLeft("2026-01-01T12:09:59Z", now)).toBe("in 9 minutes");
    expect(timeLeft("2026-01-01T12:01:30Z", now)).toBe("in 1 minute");
    expect(timeLeft("2026-01-01T12:00:30Z", now)).toBe("in under a minute");
    expect(timeLeft("2026-01-01T12:00:00Z", now)).toBeNull();
  });
});
