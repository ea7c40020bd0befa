// The time series' arithmetic and words: which buckets get an axis label, the value scale, and
// how a bucket is named. Buckets are UTC hours or days. An hour is named in the viewer's local
// time; a day is the UTC calendar day it counts, so it is named by that date (and the tooltip
// says UTC) rather than by the local date its first instant happens to fall on.
import { ANALYTICS_RANGE_LABELS, bucketMs, type AnalyticsRange, type AnalyticsResponse, type BucketUnit } from "../../../common/analytics";
import { formatCount } from "./format";

export type SeriesPoint = AnalyticsResponse["series"][number];

/** Optional zone for tests; undefined is the viewer's own. */
type Zone = string | undefined;

/** ICU puts narrow and thin no-break spaces around "PM" and "–"; plain spaces read and match the same. */
function plain(text: string): string {
  return text.replace(/[\u202f\u2009\u00a0]/g, " ");
}

/** The short axis label: "3 PM" for an hour; "Tue 10", "Mar 10" or "Mar" for a day. */
export function axisLabel(t: Date, unit: BucketUnit, range: AnalyticsRange, timeZone?: Zone): string {
  if (unit === "hour") {
    const minutes = localMinutes(t, timeZone);
    return plain(
      t.toLocaleTimeString("en-US", {
        hour: "numeric",
        // Zones with a half-hour offset start their hours at :30.
        ...(minutes === 0 ? {} : { minute: "2-digit" }),
        timeZone,
      }),
    );
  }
  if (range === "7d") return `${t.toLocaleDateString("en-US", { weekday: "short", timeZone: "UTC" })} ${t.getUTCDate()}`;
  if (range === "12m") return t.toLocaleDateString("en-US", { month: "short", timeZone: "UTC" });
  return t.toLocaleDateString("en-US", {
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  });
}

/**
 * The tooltip's heading: "Tue, Mar 10, 3 PM – 4 PM" (local; the date is the hour's start, also
 * for 11 PM – 12 AM) or "Tuesday, March 10, 2026".
 */
export function bucketTitle(t: Date, unit: BucketUnit, timeZone?: Zone): string {
  if (unit === "hour") {
    const end = new Date(t.getTime() + bucketMs("hour"));
    const date = t.toLocaleDateString("en-US", {
      weekday: "short",
      month: "short",
      day: "numeric",
      timeZone,
    });
    return plain(`${date}, ${axisLabel(t, "hour", "24h", timeZone)} – ${axisLabel(end, "hour", "24h", timeZone)}`);
  }
  return t.toLocaleDateString("en-US", {
    weekday: "long",
    month: "long",
    day: "numeric",
    year: "numeric",
    timeZone: "UTC",
  });
}

/** Whether `now` falls inside the bucket: its figures are still growing. */
export function isCurrentBucket(t: Date, unit: BucketUnit, now: Date): boolean {
  const start = t.getTime();
  return now.getTime() >= start && now.getTime() < start + bucketMs(unit);
}

function localMinutes(t: Date, timeZone: Zone): number {
  const minute = new Intl.DateTimeFormat("en-US", {
    minute: "numeric",
    timeZone,
  }).format(t);
  return Number(minute);
}

function localHour(t: Date, timeZone: Zone): number {
  const hour = new Intl.DateTimeFormat("en-US", {
    hour: "numeric",
    hourCycle: "h23",
    timeZone,
  }).format(t);
  return Number(hour) % 24;
}

/**
 * The indices of the buckets that get an axis label, at most `maxLabels` of them. Hours land on
 * round local hours (every 1, 2, 3, 4, 6 or 12), months on the 1st of a month, other days count
 * back from today so the newest bucket is always labelled.
 */
export function tickIndices(times: readonly Date[], unit: BucketUnit, range: AnalyticsRange, maxLabels: number, timeZone?: Zone): number[] {
  const limit = Math.max(2, Math.floor(maxLabels));
  const all = times.map((_, i) => i);
  if (unit === "hour") {
    const hours = times.map((t) => localHour(t, timeZone));
    for (const step of [1, 2, 3, 4, 6, 12]) {
      const picked = all.filter((i) => hours[i]! % step === 0);
      if (picked.length <= limit) return picked;
    }
    return all.filter((i) => hours[i] === 0);
  }
  if (range === "12m") {
    const firsts = all.filter((i) => times[i]!.getUTCDate() === 1);
    for (const step of [1, 2, 3, 4, 6, 12]) {
      const picked = firsts.filter((_, k) => (firsts.length - 1 - k) % step === 0);
      if (picked.length <= limit) return picked;
    }
    return firsts.slice(-1);
  }
  for (const step of [1, 2, 3, 5, 7, 10, 15, 30]) {
    const picked = all.filter((i) => (times.length - 1 - i) % step === 0);
    if (picked.length <= limit) return picked;
  }
  return all.slice(-1);
}

/** A round top for the value axis and its step: 0, step, 2·step … top, with `ticks` steps at most. */
export function niceScale(max: number, ticks = 4): { top: number; step: number } {
  if (max <= 0) return { top: ticks, step: 1 };
  const rough = max / ticks;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= rough && Number.isInteger(s)) ?? Math.ceil(rough);
  return { top: Math.ceil(max / step) * step, step };
}

/**
 * What the chart shows, in one sentence, for screen readers (the chart is role="img"). Names
 * the total, the busiest bucket and how to read each one with the keyboard.
 */
export function chartSummary(series: readonly SeriesPoint[], unit: BucketUnit, range: AnalyticsRange, timeZone?: Zone): string {
  const per = unit === "hour" ? "hour" : "day";
  const span = `the last ${ANALYTICS_RANGE_LABELS[range]}`;
  const views = series.reduce((sum, p) => sum + p.views, 0);
  const keys = `Use the arrow keys to read each ${per}.`;
  if (views === 0) return `Page views per ${per} over ${span}: none. ${keys}`;
  let busiest = series[0]!;
  for (const point of series) if (point.views > busiest.views) busiest = point;
  const when = bucketTitle(new Date(busiest.t), unit, timeZone);
  return `Page views per ${per} over ${span}: ${formatCount(views)} in total; the busiest ${per} was ${when}, with ${formatCount(busiest.views)}. ${keys}`;
}
