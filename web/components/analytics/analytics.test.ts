import { describe, expect, it } from "vitest";
import { analyticsWindow } from "../../../common/analytics";
import { axisLabel, bucketTitle, chartSummary, isCurrentBucket, niceScale, tickIndices, type SeriesPoint } from "./chart";
import { changeOf, changeSentence, countOf, countryName, formatCompact, formatCount, statusName, statusTone } from "./format";

const point = (t: Date, views: number): SeriesPoint => ({
  t: t.toISOString(),
  views,
  visitors: views,
  bandwidth: 0,
});

describe("analytics numbers", () => {
  it("formats counts", () => {
    expect(formatCount(1234567)).toBe("1,234,567");
    expect(formatCompact(1234)).toBe("1.2K");
    expect(countOf(1, "view")).toBe("1 view");
    expect(countOf(1200, "view")).toBe("1,200 views");
  });

  it.each([
    [10, 25, { kind: "up", percent: 25 }, "Up 25% on the previous 7 days"],
    [10, -40, { kind: "down", percent: 40 }, "Down 40% on the previous 7 days"],
    [10, 0, { kind: "flat" }, "Same as the previous 7 days"],
    [10, null, { kind: "new" }, "None in the previous 7 days"],
    [0, null, { kind: "none" }, "None in the previous 7 days either"],
  ] as const)("%d now, change %s", (current, percent, change, sentence) => {
    expect(changeOf(current, percent)).toEqual(change);
    expect(changeSentence(changeOf(current, percent), "7d")).toBe(sentence);
  });

  it("names status codes and countries", () => {
    expect(statusName("404")).toBe("Not Found");
    expect(statusName("299")).toBe("");
    expect(["200", "304", "404", "503"].map(statusTone)).toEqual(["success", "redirect", "client", "server"]);
    expect(countryName("NZ", "en")).toBe("New Zealand");
    expect(countryName("not a code", "en")).toBe("not a code");
  });
});

describe("the time series", () => {
  const now = new Date("2026-03-10T15:42:00Z");

  it("labels hours in the viewer's zone and UTC days by their date", () => {
    const hour = new Date("2026-03-10T15:00:00Z");
    expect(axisLabel(hour, "hour", "24h", "UTC")).toBe("3 PM");
    expect(axisLabel(hour, "hour", "24h", "America/New_York")).toBe("11 AM");
    // A half-hour zone: the UTC hour starts at :30 there.
    expect(axisLabel(hour, "hour", "24h", "Asia/Kolkata")).toBe("8:30 PM");
    expect(bucketTitle(hour, "hour", "Asia/Kolkata")).toBe("Tue, Mar 10, 8:30 PM – 9:30 PM");
    expect(bucketTitle(hour, "hour", "Europe/Berlin")).toBe("Tue, Mar 10, 4 PM – 5 PM");
    // Across midnight the date is the hour's start.
    expect(bucketTitle(new Date("2026-03-10T22:00:00Z"), "hour", "Europe/Berlin")).toBe("Tue, Mar 10, 11 PM – 12 AM");

    const day = new Date("2026-03-10T00:00:00Z");
    // West of UTC the day's first instant is the evening before; the label stays the 10th.
    expect(axisLabel(day, "day", "7d", "America/Los_Angeles")).toBe("Tue 10");
    expect(axisLabel(day, "day", "30d")).toBe("Mar 10");
    expect(axisLabel(day, "day", "12m")).toBe("Mar");
    expect(bucketTitle(day, "day", "America/Los_Angeles")).toBe("Tuesday, March 10, 2026");
  });

  it("knows the bucket that is still filling", () => {
    expect(isCurrentBucket(new Date("2026-03-10T15:00:00Z"), "hour", now)).toBe(true);
    expect(isCurrentBucket(new Date("2026-03-10T14:00:00Z"), "hour", now)).toBe(false);
    expect(isCurrentBucket(new Date("2026-03-10T00:00:00Z"), "day", now)).toBe(true);
  });

  it("labels round local hours, month starts, and days back from today", () => {
    const hours = analyticsWindow("24h", now).buckets;
    const every6 = tickIndices(hours, "hour", "24h", 5, "UTC");
    expect(every6.map((i) => hours[i]!.getUTCHours())).toEqual([18, 0, 6, 12]);
    expect(tickIndices(hours, "hour", "24h", 30, "UTC")).toHaveLength(24);

    const week = analyticsWindow("7d", now).buckets;
    expect(tickIndices(week, "day", "7d", 7)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(tickIndices(week, "day", "7d", 4)).toEqual([0, 2, 4, 6]);

    const month = analyticsWindow("30d", now).buckets;
    const monthTicks = tickIndices(month, "day", "30d", 6);
    expect(monthTicks.length).toBeLessThanOrEqual(6);
    expect(monthTicks.at(-1)).toBe(29);

    const year = analyticsWindow("12m", now).buckets;
    const firsts = tickIndices(year, "day", "12m", 12);
    expect(firsts.map((i) => year[i]!.toISOString().slice(0, 10))).toEqual([
      "2025-04-01",
      "2025-05-01",
      "2025-06-01",
      "2025-07-01",
      "2025-08-01",
      "2025-09-01",
      "2025-10-01",
      "2025-11-01",
      "2025-12-01",
      "2026-01-01",
      "2026-02-01",
      "2026-03-01",
    ]);
    expect(tickIndices(year, "day", "12m", 4).map((i) => year[i]!.toISOString().slice(0, 7))).toEqual(["2025-06", "2025-09", "2025-12", "2026-03"]);
  });

  it.each([
    [0, 4, 1],
    [1, 1, 1],
    [3, 3, 1],
    [40, 40, 10],
    [41, 60, 20],
    [1234, 1500, 500],
  ])("scales a maximum of %d to %d in steps of %d", (max, top, step) => {
    expect(niceScale(max)).toEqual({ top, step });
  });

  it("summarises the chart for screen readers", () => {
    const days = analyticsWindow("7d", now).buckets;
    const series = days.map((t, i) => point(t, i === 3 ? 40 : 2));
    expect(chartSummary(series, "day", "7d")).toBe(
      "Page views per day over the last 7 days: 52 in total; the busiest day was Saturday, March 7, 2026, with 40. Use the arrow keys to read each day.",
    );
    expect(
      chartSummary(
        days.map((t) => point(t, 0)),
        "day",
        "7d",
      ),
    ).toBe("Page views per day over the last 7 days: none. Use the arrow keys to read each day.");
  });
});
