// The roll-up arithmetic on a real database: raw rows in, hourly and daily totals and top entries
// out, with the period boundaries exactly at UTC hours and days, whatever the session's time zone.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analyticsWindow, percentChange } from "../../common/analytics";
import { pruneAnalytics, totalsFor, topFor, seriesFor } from "../db/repositories/analytics";
import { insertAnalyticsEvents, type AnalyticsEventRow } from "../test/rows";
import { rowsOf } from "../db/rows";
import { DRIVERS, getTestServer, type TestServer } from "../test/support";
import { signedInClient } from "../test/factories";
import { createSiteWith, htmlFile } from "../test/sites";
import { rollUpAnalytics } from "./rollUpAnalytics";

const row = (siteId: string, at: string, over: Partial<AnalyticsEventRow> = {}): AnalyticsEventRow => ({
  site_id: siteId,
  at,
  host_kind: "subdomain",
  path: "/",
  status: 200,
  page_view: true,
  bot: false,
  referrer_host: null,
  country: null,
  visitor: "v1",
  requests: 1,
  bytes: 1000,
  ...over,
});

describe("analytics windows", () => {
  const now = new Date("2026-03-10T15:42:10.123Z");

  it("ends with the bucket holding now and spans whole UTC buckets", () => {
    const day = analyticsWindow("24h", now);
    expect(day.unit).toBe("hour");
    expect(day.buckets).toHaveLength(24);
    expect(day.start.toISOString()).toBe("2026-03-09T16:00:00.000Z");
    expect(day.end.toISOString()).toBe("2026-03-10T16:00:00.000Z");
    expect(day.previousStart.toISOString()).toBe("2026-03-08T16:00:00.000Z");

    const week = analyticsWindow("7d", now);
    expect(week.unit).toBe("day");
    expect(week.buckets.map((b) => b.toISOString().slice(0, 10))).toEqual([
      "2026-03-04",
      "2026-03-05",
      "2026-03-06",
      "2026-03-07",
      "2026-03-08",
      "2026-03-09",
      "2026-03-10",
    ]);
    expect(week.end.toISOString()).toBe("2026-03-11T00:00:00.000Z");
    expect(week.previousStart.toISOString()).toBe("2026-02-25T00:00:00.000Z");

    expect(analyticsWindow("30d", now).buckets).toHaveLength(30);
    const year = analyticsWindow("12m", now);
    expect(year.buckets).toHaveLength(365);
    expect(year.start.toISOString()).toBe("2025-03-11T00:00:00.000Z");
  });

  it("treats an instant on a boundary as the start of the next bucket", () => {
    const window = analyticsWindow("24h", new Date("2026-03-10T00:00:00.000Z"));
    expect(window.buckets.at(-1)!.toISOString()).toBe("2026-03-10T00:00:00.000Z");
    expect(window.start.toISOString()).toBe("2026-03-09T01:00:00.000Z");
  });

  it("gives the change in percent, or null without a previous period", () => {
    expect(percentChange(150, 100)).toBe(50);
    expect(percentChange(50, 100)).toBe(-50);
    expect(percentChange(7, 0)).toBeNull();
    expect(percentChange(1, 3)).toBe(-67);
  });
});

describe.each(DRIVERS)("analytics roll-ups (%s)", (driver) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await getTestServer(driver);
  });
  afterAll(() => server.close());

  async function newSite(): Promise<string> {
    const { client } = await signedInClient(server);
    return (await createSiteWith(client, htmlFile())).id;
  }

  it("adds up views, visitors, requests, bots and bytes per UTC hour and day, in any session time zone", async () => {
    const site = await newSite();
    const db = server.ctx.db;
    // A zone with a half-hour offset: a local-time truncation would move rows between buckets.
    await db.execute(sql`set time zone 'Asia/Kolkata'`);
    try {
      await insertAnalyticsEvents(db, [
        row(site, "2026-03-09T23:00:00Z", { visitor: "a", requests: 2, bytes: 100 }),
        row(site, "2026-03-09T23:59:00Z", { visitor: "b", bytes: 50 }),
        // The next UTC day begins: a new hour and a new day.
        row(site, "2026-03-10T00:00:00Z", { visitor: "a", bytes: 10 }),
        row(site, "2026-03-10T00:30:00Z", { path: "/app.js", page_view: false, visitor: "a", bytes: 5000 }),
        row(site, "2026-03-10T00:31:00Z", { bot: true, visitor: null, requests: 7, bytes: 700 }),
        row(site, "2026-03-10T00:32:00Z", { path: "/missing", status: 404, page_view: false, visitor: null, requests: 3, bytes: 30 }),
        row(site, "2026-03-10T00:33:00Z", { path: "/about", referrer_host: "news.example", country: "NZ", visitor: "c", requests: 4, bytes: 40 }),
      ]);
      // One raw batch per site and minute.
      expect(await rollUpAnalytics(server.ctx)).toBe(7);
      // Nothing is waiting any more; running again changes nothing.
      expect(await rollUpAnalytics(server.ctx)).toBe(0);

      const hourly = rowsOf<{
        hour: string | Date;
        views: number;
        visitors: number;
        requests: number;
        bot_requests: number;
        bandwidth: string | number;
      }>(
        await db.execute(
          sql`select hour, views, visitors, requests, bot_requests, bandwidth from analytics_hourly where site_id = ${site} order by hour`,
        ),
      ).map((r) => ({ ...r, hour: new Date(r.hour).toISOString(), bandwidth: Number(r.bandwidth) }));
      expect(hourly).toEqual([
        { hour: "2026-03-09T23:00:00.000Z", views: 3, visitors: 2, requests: 3, bot_requests: 0, bandwidth: 150 },
        // Page views exclude the asset, the bot and the 404; visitors a and c; every request's bytes count.
        { hour: "2026-03-10T00:00:00.000Z", views: 5, visitors: 2, requests: 16, bot_requests: 7, bandwidth: 5780 },
      ]);
      const daily = rowsOf<{ day: string | Date; views: number; visitors: number }>(
        await db.execute(sql`select day, views, visitors from analytics_daily where site_id = ${site} order by day`),
      ).map((r) => ({ day: new Date(r.day).toISOString(), views: r.views, visitors: r.visitors }));
      expect(daily).toEqual([
        { day: "2026-03-09T00:00:00.000Z", views: 3, visitors: 2 },
        { day: "2026-03-10T00:00:00.000Z", views: 5, visitors: 2 },
      ]);

      // Reading: the 24 hours ending in the 00:00 hour see both hours; "a" counts once per UTC day.
      const end = new Date("2026-03-10T01:00:00Z");
      const start = new Date("2026-03-09T01:00:00Z");
      expect(await totalsFor(db, site, "hour", start, end)).toEqual({ views: 8, visitors: 4, bandwidth: 5930, bot_requests: 7 });
      expect(await totalsFor(db, site, "day", new Date("2026-03-04T00:00:00Z"), new Date("2026-03-11T00:00:00Z"))).toEqual({
        views: 8,
        visitors: 4,
        bandwidth: 5930,
        bot_requests: 7,
      });
      expect((await seriesFor(db, site, "hour", start, end)).map((p) => p.views)).toEqual([3, 5]);
      const top = await topFor(db, site, "day", new Date("2026-03-04T00:00:00Z"), new Date("2026-03-11T00:00:00Z"), 10);
      expect(top.page).toEqual([
        { key: "/", count: 4 },
        { key: "/about", count: 4 },
      ]);
      expect(top.referrer).toEqual([{ key: "news.example", count: 4 }]);
      expect(top.country).toEqual([{ key: "NZ", count: 4 }]);
      expect(top.not_found).toEqual([{ key: "/missing", count: 3 }]);
      expect(top.status).toEqual([
        { key: "200", count: 16 },
        { key: "404", count: 3 },
      ]);
    } finally {
      await db.execute(sql`set time zone 'UTC'`);
    }
  });

  it("adds what arrives after an hour's roll-up to it, counting a returning visitor once", async () => {
    const site = await newSite();
    await insertAnalyticsEvents(server.ctx.db, [row(site, "2026-05-01T10:05:00Z")]);
    await rollUpAnalytics(server.ctx);
    await insertAnalyticsEvents(server.ctx.db, [
      row(site, "2026-05-01T10:59:00Z", { visitor: "v2", requests: 2 }),
      row(site, "2026-05-01T10:59:00Z", { path: "/b", visitor: "v1" }),
    ]);
    expect(await rollUpAnalytics(server.ctx)).toBe(1);
    const totals = await totalsFor(server.ctx.db, site, "day", new Date("2026-05-01T00:00:00Z"), new Date("2026-05-02T00:00:00Z"));
    expect(totals).toMatchObject({ views: 4, visitors: 2 });
    expect(await totalsFor(server.ctx.db, site, "hour", new Date("2026-05-01T00:00:00Z"), new Date("2026-05-02T00:00:00Z"))).toMatchObject({
      views: 4,
      visitors: 2,
    });
    const top = await topFor(server.ctx.db, site, "hour", new Date("2026-05-01T10:00:00Z"), new Date("2026-05-01T11:00:00Z"), 10);
    expect(top.page).toEqual([
      { key: "/", count: 3 },
      { key: "/b", count: 1 },
    ]);
  });

  it("counts every batch exactly once when several workers roll up at the same time", async () => {
    const site = await newSite();
    const minutes = 120;
    for (let m = 0; m < minutes; m += 20) {
      await insertAnalyticsEvents(
        server.ctx.db,
        Array.from({ length: 20 }, (_, i) =>
          row(site, new Date(Date.parse("2026-06-01T10:00:00Z") + (m + i) * 60_000).toISOString(), { visitor: `v${(m + i) % 7}`, requests: 3 }),
        ),
      );
    }
    const counted = await Promise.all([rollUpAnalytics(server.ctx), rollUpAnalytics(server.ctx), rollUpAnalytics(server.ctx)]);
    // PGlite runs one transaction at a time; PostgreSQL's workers skip each other's batches.
    expect(counted.reduce((a, b) => a + b, 0)).toBe(minutes);
    const totals = await totalsFor(server.ctx.db, site, "day", new Date("2026-06-01T00:00:00Z"), new Date("2026-06-02T00:00:00Z"));
    expect(totals).toMatchObject({ views: 3 * minutes, visitors: 7 });
    const waiting = rowsOf<{ n: number }>(
      await server.ctx.db.execute(sql`select count(*)::integer as n from analytics_batches where site_id = ${site} and not rolled_up`),
    );
    expect(waiting[0]!.n).toBe(0);
  });

  it("drops raw rows after 7 days and roll-ups after 13 months", async () => {
    const site = await newSite();
    const now = new Date("2026-06-15T12:00:00Z");
    await insertAnalyticsEvents(server.ctx.db, [
      row(site, "2026-06-01T10:00:00Z"),
      row(site, "2026-06-14T10:00:00Z"),
      row(site, "2025-05-01T10:00:00Z"),
    ]);
    await rollUpAnalytics(server.ctx);
    await pruneAnalytics(server.ctx.db, now);
    const count = async (query: ReturnType<typeof sql>) => Number(rowsOf<{ n: string | number }>(await server.ctx.db.execute(query))[0]!.n);
    expect(await count(sql`select count(*) as n from analytics_events where site_id = ${site}`)).toBe(1);
    expect(await count(sql`select count(*) as n from analytics_daily where site_id = ${site}`)).toBe(2);
    expect(await count(sql`select count(*) as n from analytics_hourly where site_id = ${site}`)).toBe(2);
  });

  it("ignores rows of a site that no longer exists, keeping the rest of the batch", async () => {
    const site = await newSite();
    await insertAnalyticsEvents(server.ctx.db, [
      row("00000000-0000-4000-8000-000000000000", "2026-05-01T10:00:00Z"),
      row(site, "2026-05-01T10:00:00Z"),
    ]);
    await rollUpAnalytics(server.ctx);
    expect((await totalsFor(server.ctx.db, site, "day", new Date("2026-05-01T00:00:00Z"), new Date("2026-05-02T00:00:00Z"))).views).toBe(1);
  });
});
