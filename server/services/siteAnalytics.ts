// The figures of one site's Analytics tab, and the analytics parts of the overview, all from the
// roll-ups (services/rollUpAnalytics.ts): totals with the previous period, a series with a point
// for every bucket, and the ranked lists.
import { analyticsWindow, ANALYTICS_TOP_LIMIT, percentChange, type AnalyticsRange, type AnalyticsResponse } from "../../common/analytics";
import type { Db } from "../db/client";
import { bandwidthOfUser, seriesFor, siteHasAnalytics, topFor, totalsFor, viewsBySiteOfUser } from "../db/repositories/analytics";

const DAY_MS = 86_400_000;

/** The report for a site the caller has already checked is the user's. */
export async function siteAnalytics(db: Db, siteId: string, range: AnalyticsRange, now: Date, countriesEnabled: boolean): Promise<AnalyticsResponse> {
  const window = analyticsWindow(range, now);
  const { unit, start, end, previousStart } = window;
  const [totals, previous, points, top, hasData] = await Promise.all([
    totalsFor(db, siteId, unit, start, end),
    totalsFor(db, siteId, unit, previousStart, start),
    seriesFor(db, siteId, unit, start, end),
    topFor(db, siteId, unit, start, end, ANALYTICS_TOP_LIMIT),
    siteHasAnalytics(db, siteId),
  ]);
  const byTime = new Map(points.map((p) => [p.t.getTime(), p]));
  return {
    range,
    unit,
    start: start.toISOString(),
    end: end.toISOString(),
    totals,
    previous,
    change: {
      views: percentChange(totals.views, previous.views),
      visitors: percentChange(totals.visitors, previous.visitors),
      bandwidth: percentChange(totals.bandwidth, previous.bandwidth),
    },
    series: window.buckets.map((t) => {
      const p = byTime.get(t.getTime());
      return { t: t.toISOString(), views: p?.views ?? 0, visitors: p?.visitors ?? 0, bandwidth: p?.bandwidth ?? 0 };
    }),
    top_pages: top.page,
    top_referrers: top.referrer,
    statuses: top.status,
    not_found: top.not_found,
    countries: top.country,
    countries_enabled: countriesEnabled,
    has_data: hasData,
  };
}

/** The UTC day `days` whole days before the one holding `now`: "the last N days" includes today. */
export function daysBack(now: Date, days: number): Date {
  return new Date((Math.floor(now.getTime() / DAY_MS) - (days - 1)) * DAY_MS);
}

export function bandwidthLast30Days(db: Db, userId: string, now: Date): Promise<number> {
  return bandwidthOfUser(db, userId, daysBack(now, 30));
}

export function viewsLast7Days(db: Db, userId: string, now: Date): Promise<Map<string, number>> {
  return viewsBySiteOfUser(db, userId, daysBack(now, 7));
}
