import { describe, expect, it } from "vitest";
import { SCHEDULE_TEXT } from "../../../../common/sites";
import { fromLocalInput, ScheduleForm, scheduleBadge, timeUntil, toLocalInput } from "./schedule";

const NOW = Date.parse("2026-06-01T12:00:00Z");
const at = (ms: number) => new Date(NOW + ms).toISOString();
const MIN = 60_000;

describe("datetime-local conversions", () => {
  it("round-trips a time through the local input to the same instant", () => {
    const iso = "2026-06-03T08:30:00.000Z";
    const local = toLocalInput(iso);
    expect(local).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
    expect(fromLocalInput(local)).toBe(iso);
  });

  it("reads the input as local wall time, not UTC", () => {
    const local = "2026-06-03T08:30";
    expect(fromLocalInput(local)).toBe(new Date(2026, 5, 3, 8, 30).toISOString());
  });

  it.each([
    ["", null],
    ["   ", null],
    ["tomorrow", undefined],
    ["2026-13-45T99:99", undefined],
  ])("%j → %s", (value, expected) => {
    expect(fromLocalInput(value)).toBe(expected);
  });

  it("shows an empty input for no time", () => {
    expect(toLocalInput(null)).toBe("");
  });
});

describe("scheduleBadge", () => {
  it.each([
    [{ expires_at: null, publish_at: null }, null],
    [{ expires_at: at(-MIN), publish_at: null }, "Expired"],
    [{ expires_at: at(-MIN), publish_at: at(-2 * MIN) }, "Expired"],
    [{ expires_at: at(3 * 24 * 60 * MIN + MIN), publish_at: null }, "Expires in 3 days"],
    [{ expires_at: at(5 * 60 * MIN), publish_at: null }, "Expires in 5 hours"],
    [{ expires_at: null, publish_at: at(10 * MIN) }, "Goes live in 10 minutes"],
    [{ expires_at: at(60 * 60 * MIN), publish_at: at(30 * 1000) }, "Goes live in less than a minute"],
    [{ expires_at: null, publish_at: at(-MIN) }, null],
  ])("%j → %s", (site, label) => {
    expect(scheduleBadge(site, NOW)?.label ?? null).toBe(label);
  });

  it("counts whole units down", () => {
    expect(timeUntil(new Date(NOW + 47 * 60 * MIN), NOW)).toBe("in 47 hours");
    expect(timeUntil(new Date(NOW + 61 * MIN), NOW)).toBe("in 61 minutes");
  });
});

describe("ScheduleForm", () => {
  const messages = (fields: { expiresAt: string; publishAt: string }) =>
    ScheduleForm.safeParse(fields).error?.issues.map((issue) => [issue.path.join("."), issue.message]);
  const inDays = (days: number) => toLocalInput(new Date(Date.now() + days * 24 * 60 * MIN).toISOString());

  it("sends both times as UTC, or null for a blank field", () => {
    const expires = inDays(3);
    expect(ScheduleForm.parse({ expiresAt: expires, publishAt: "" })).toEqual({
      expiresAt: fromLocalInput(expires),
      publishAt: null,
    });
  });
  it("says which time cannot be read", () => {
    expect(messages({ expiresAt: "soon", publishAt: "2026-13-45T99:99" })).toEqual([
      ["expiresAt", SCHEDULE_TEXT.invalidTime],
      ["publishAt", SCHEDULE_TEXT.invalidTime],
    ]);
  });
  it("puts the server's rules under their fields", () => {
    expect(messages({ expiresAt: inDays(-1), publishAt: "" })).toEqual([["expiresAt", SCHEDULE_TEXT.expiryInPast]]);
    expect(messages({ expiresAt: inDays(2), publishAt: inDays(3) })).toEqual([["publishAt", SCHEDULE_TEXT.publishAfterExpiry]]);
  });
});
