// Site analytics: ranges, their buckets, and the API's answer, shared by the server and the
// dashboard. Measured at the edge, with no script in the user's pages and no cookies.
//
//   GET /api/sites/:id/analytics?range=24h|7d|30d|12m   → AnalyticsResponse (owner only; else 404)
//
// Buckets are UTC hours (24h) or UTC days (7d, 30d, 12m); the dashboard labels them in local time.
// A range ends with the bucket holding `now` (partial) and spans whole buckets: 24 hours, 7, 30
// or 365 days. The previous period is the same number of buckets just before.
import { z } from "zod";

export const ANALYTICS_RANGES = ["24h", "7d", "30d", "12m"] as const;
export type AnalyticsRange = (typeof ANALYTICS_RANGES)[number];
export const DEFAULT_ANALYTICS_RANGE: AnalyticsRange = "7d";

export const ANALYTICS_RANGE_LABELS: Record<AnalyticsRange, string> = {
  "24h": "24 hours",
  "7d": "7 days",
  "30d": "30 days",
  "12m": "12 months",
};

export type BucketUnit = "hour" | "day";

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

const RANGE_BUCKETS: Record<AnalyticsRange, { unit: BucketUnit; count: number }> = {
  "24h": { unit: "hour", count: 24 },
  "7d": { unit: "day", count: 7 },
  "30d": { unit: "day", count: 30 },
  "12m": { unit: "day", count: 365 },
};

export function bucketMs(unit: BucketUnit): number {
  return unit === "hour" ? HOUR_MS : DAY_MS;
}

/** The start of the UTC hour or day holding `at`. */
export function bucketStart(at: Date, unit: BucketUnit): Date {
  const size = bucketMs(unit);
  return new Date(Math.floor(at.getTime() / size) * size);
}

export interface AnalyticsWindow {
  unit: BucketUnit;
  /** Inclusive start of the first bucket. */
  start: Date;
  /** Exclusive end: the end of the bucket holding `now`. */
  end: Date;
  /** Bucket starts, oldest first. */
  buckets: Date[];
  /** The same number of buckets just before `start`. */
  previousStart: Date;
}

export function analyticsWindow(range: AnalyticsRange, now: Date): AnalyticsWindow {
  const { unit, count } = RANGE_BUCKETS[range];
  const size = bucketMs(unit);
  const last = bucketStart(now, unit).getTime();
  const start = last - (count - 1) * size;
  const buckets = Array.from({ length: count }, (_, i) => new Date(start + i * size));
  return { unit, start: new Date(start), end: new Date(last + size), buckets, previousStart: new Date(start - count * size) };
}

/** Change against the previous period, in percent (rounded); null when there was nothing before. */
export function percentChange(current: number, previous: number): number | null {
  if (previous === 0) return null;
  return Math.round(((current - previous) / previous) * 100);
}

export const analyticsRangeSchema = z.enum(ANALYTICS_RANGES);

export const analyticsQuerySchema = z.object({
  range: analyticsRangeSchema.default(DEFAULT_ANALYTICS_RANGE).describe("The period: the last 24 hours, 7 days, 30 days or 12 months."),
});

const totalsSchema = z.object({
  views: z.number().int(),
  visitors: z.number().int(),
  bandwidth: z.number().int().describe("Bytes sent, bots included."),
  bot_requests: z.number().int().describe("Requests recognised as bots by their user agent; counted apart from views and visitors."),
});
export type AnalyticsTotals = z.infer<typeof totalsSchema>;

const rankedSchema = z.array(z.object({ key: z.string(), count: z.number().int() }));

export const analyticsResponseSchema = z.object({
  range: analyticsRangeSchema,
  unit: z.enum(["hour", "day"]),
  start: z.string().describe("ISO time the first bucket starts."),
  end: z.string().describe("ISO time the last bucket ends (it holds now, so it is partial)."),
  totals: totalsSchema,
  previous: totalsSchema,
  change: z
    .object({ views: z.number().nullable(), visitors: z.number().nullable(), bandwidth: z.number().nullable() })
    .describe("Change in percent per total; null when the previous period had none."),
  series: z.array(z.object({ t: z.string(), views: z.number().int(), visitors: z.number().int(), bandwidth: z.number().int() })),
  /** Page views per path. */
  top_pages: rankedSchema,
  /** Page views per referring host (other sites only). */
  top_referrers: rankedSchema,
  /** Requests per status code, bots included. */
  statuses: rankedSchema,
  /** Requests answered 404, per path: the broken links to fix. */
  not_found: rankedSchema,
  /** Page views per ISO country code, when the operator configured a GeoIP database. */
  countries: rankedSchema,
  countries_enabled: z.boolean().describe("Whether country data is collected at all (BERTH_GEOIP_CSV)."),
  has_data: z.boolean().describe("Whether the site has ever been visited: false shows the empty state."),
});
export type AnalyticsResponse = z.infer<typeof analyticsResponseSchema>;

/** Rows per ranked list in the API's answer. */
export const ANALYTICS_TOP_LIMIT = 10;

export const ANALYTICS_TEXT = {
  title: "Analytics",
  views: "Page views",
  visitors: "Unique visitors",
  bandwidth: "Bandwidth",
  emptyTitle: "No visits yet",
  emptyBody:
    "Views, visitors and bandwidth appear here within a minute of the first visit. Berth counts them at its edge: no script in your pages and no cookies.",
  topPages: "Top pages",
  topReferrers: "Top referrers",
  statuses: "Status codes",
  notFound: "Broken links (404)",
  countries: "Countries",
  noReferrers: "No visits from other sites yet",
  noCountries: "Countries appear when the operator sets up a GeoIP database.",
  bots: "Bot requests, counted apart",
  loadFailed: "Failed to load analytics",
} as const;
