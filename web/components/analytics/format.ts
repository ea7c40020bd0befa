// Words and numbers of the Analytics tab: counts, the change against the previous period, and
// the names of status codes and countries. Pure, so the tests pin them down.
import { ANALYTICS_RANGE_LABELS, analyticsRangeSchema, DEFAULT_ANALYTICS_RANGE, type AnalyticsRange } from "../../../common/analytics";

const COUNT = new Intl.NumberFormat("en-US");
const COMPACT = new Intl.NumberFormat("en-US", {
  notation: "compact",
  maximumFractionDigits: 1,
});

/** 1234 → "1,234". */
export function formatCount(value: number): string {
  return COUNT.format(value);
}

/** 1234 → "1.2K": the chart's axis, where space is short. */
export function formatCompact(value: number): string {
  return COMPACT.format(value);
}

/** "views" and "1 view": a count with its noun. */
export function countOf(value: number, singular: string, plural = `${singular}s`): string {
  return `${formatCount(value)} ${value === 1 ? singular : plural}`;
}

/**
 * How a total moved against the previous period. "new" when there was nothing before (a
 * percentage of zero means nothing), "none" when there is nothing in either period.
 */
export type Change = { kind: "up" | "down"; percent: number } | { kind: "flat" } | { kind: "new" } | { kind: "none" };

/** `percent` is the API's rounded change, null when the previous period had none. */
export function changeOf(current: number, percent: number | null): Change {
  if (percent === null) return current > 0 ? { kind: "new" } : { kind: "none" };
  if (percent > 0) return { kind: "up", percent };
  if (percent < 0) return { kind: "down", percent: -percent };
  return { kind: "flat" };
}

/** "the previous 7 days". */
export function previousPeriod(range: AnalyticsRange): string {
  return `the previous ${ANALYTICS_RANGE_LABELS[range]}`;
}

/** The change in words, for the card's footer and screen readers. */
export function changeSentence(change: Change, range: AnalyticsRange): string {
  const before = previousPeriod(range);
  switch (change.kind) {
    case "up":
      return `Up ${formatCount(change.percent)}% on ${before}`;
    case "down":
      return `Down ${formatCount(change.percent)}% on ${before}`;
    case "flat":
      return `Same as ${before}`;
    case "new":
      return `None in ${before}`;
    case "none":
      return `None in ${before} either`;
  }
}

const STATUS_NAMES: Record<number, string> = {
  200: "OK",
  206: "Partial Content",
  301: "Moved Permanently",
  302: "Found",
  303: "See Other",
  304: "Not Modified",
  307: "Temporary Redirect",
  308: "Permanent Redirect",
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  410: "Gone",
  412: "Precondition Failed",
  416: "Range Not Satisfiable",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

/** "404" → "Not Found"; "" for codes without a common name. */
export function statusName(code: string): string {
  return STATUS_NAMES[Number(code)] ?? "";
}

export type StatusTone = "success" | "redirect" | "client" | "server";

export function statusTone(code: string): StatusTone {
  const n = Number(code);
  if (n >= 500) return "server";
  if (n >= 400) return "client";
  if (n >= 300) return "redirect";
  return "success";
}

/** "NZ" → "New Zealand" in the viewer's language; the code itself when the name is unknown. */
export function countryName(code: string, locale?: string): string {
  try {
    const names = new Intl.DisplayNames(locale, { type: "region" });
    return names.of(code.toUpperCase()) ?? code;
  } catch {
    return code; // Not a region code Intl accepts, e.g. "XX".
  }
}

/** The ?range= of the address; anything else is the default range. */
export function parseRange(value: string | null): AnalyticsRange {
  const parsed = analyticsRangeSchema.safeParse(value);
  return parsed.success ? parsed.data : DEFAULT_ANALYTICS_RANGE;
}
