// The collector against a real database: batches written as the issue asks (every second, or at
// 1,000 visits), grouped rows, the day's salt, GeoIP countries, and a flush on close.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "../../db/rows";
import { getTestServer, type TestServer } from "../../test/support";
import { signedInClient } from "../../test/factories";
import { createSiteWith, htmlFile } from "../../test/sites";
import type { FastifyBaseLogger } from "fastify";
import { AnalyticsCollector, ENTRIES_PER_TURN } from "./collector";
import { watchedDb } from "../../test/watchedDb";
import { EdgeMemory, MIN_BUDGET_BYTES } from "../memory/budget";
import { memoryAfterCollection } from "../../memoryReport";
import { parseGeoIpCsv } from "./geoip";

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";
const HTML = { "content-type": "text/html; charset=utf-8" };

describe("the analytics collector", () => {
  let server: TestServer;
  let site: { siteId: string; versionHost: boolean };
  let clock = Date.parse("2026-04-01T10:00:30Z");

  beforeAll(async () => {
    server = await getTestServer("pglite");
    const { client } = await signedInClient(server);
    site = { siteId: (await createSiteWith(client, htmlFile())).id, versionHost: false };
  });
  afterAll(() => server.close());

  const collector = (geo?: string) =>
    new AnalyticsCollector({
      db: server.ctx.db,
      log: server.ctx.log,
      sitesDomain: "localhost",
      trustProxy: false,
      now: () => clock,
      ...(geo ? { geoIp: parseGeoIpCsv(geo) } : {}),
    });

  async function rows() {
    const result = await server.ctx.db.execute(
      sql`select * from analytics_events where site_id = ${site.siteId} order by requests desc, bot, path, visitor`,
    );
    await server.ctx.db.execute(sql`delete from analytics_batches where site_id = ${site.siteId}`);
    return rowsOf<{
      at: string | Date;
      host_kind: string;
      path: string;
      status: number;
      page_view: boolean;
      bot: boolean;
      visitor: string | null;
      country: string | null;
      requests: number;
      bytes: string | number;
    }>(result);
  }

  it("groups a batch into one row per distinct visit shape, with hashed visitors", async () => {
    const c = collector();
    for (let i = 0; i < 3; i++) c.record(site, "abcde.localhost:8080", "/?x=" + i, { "user-agent": BROWSER }, "203.0.113.1", 200, HTML, 100);
    c.record(site, "abcde.localhost:8080", "/", { "user-agent": BROWSER }, "203.0.113.2", 200, HTML, 100);
    c.record(site, "www.example.com", "/", { "user-agent": "curl/8.5.0" }, "203.0.113.3", 200, HTML, 100);
    await c.close();
    // Null fields are left out of the stored JSON (smaller batches); the view reads them as null.
    const stored = rowsOf<{ events: Array<Record<string, unknown>> }>(
      await server.ctx.db.execute(sql`select events from analytics_batches where site_id = ${site.siteId}`),
    );
    const bot = stored.flatMap((b) => b.events).find((e) => e.bot === true);
    expect(bot && Object.keys(bot).sort()).toEqual(["bot", "bytes", "host_kind", "page_view", "path", "requests", "status"]);
    const written = await rows();
    expect(written.map((r) => [r.host_kind, r.path, r.bot, r.requests, Number(r.bytes)])).toEqual([
      ["subdomain", "/", false, 3, 300],
      ["subdomain", "/", false, 1, 100],
      ["custom", "/", true, 1, 100],
    ]);
    // Two visitors, two hashes, none of them the address; bots carry none.
    expect(new Set(written.map((r) => r.visitor)).size).toBe(3);
    expect(written[2]!.visitor).toBeNull();
    expect(written[0]!.visitor).toMatch(/^[0-9a-f]{32}$/);
    expect(new Date(written[0]!.at).toISOString()).toBe("2026-04-01T10:00:00.000Z");
  });

  it("counts identical requests together, and writes everything that waited once a second, in one row per site", async () => {
    const c = collector();
    const paths = 2500;
    for (let i = 0; i < 5000; i++) c.record(site, "abcde.localhost", "/same", { "user-agent": BROWSER }, "203.0.113.1", 200, HTML, 1);
    for (let i = 0; i < paths; i++) c.record(site, "abcde.localhost", `/p${i}`, { "user-agent": BROWSER }, "203.0.113.1", 200, HTML, 1);
    const batches = async () =>
      rowsOf<{ n: number }>(
        await server.ctx.db.execute(sql`select jsonb_array_length(events) as n from analytics_batches where site_id = ${site.siteId}`),
      );
    expect(await batches()).toEqual([]);
    const started = Date.now();
    let written: Array<{ n: number }> = [];
    while (written.length === 0 && Date.now() - started < 1500) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      written = await batches();
    }
    // The timer's write: all of it, one row.
    expect(written.map((b) => Number(b.n))).toEqual([paths + 1]);
    await c.close();
    const all = await rows();
    expect(all).toHaveLength(paths + 1);
    expect(all.find((r) => r.path === "/same")?.requests).toBe(5000);
    expect(all.reduce((sum, r) => sum + r.requests, 0)).toBe(5000 + paths);
  });

  it("keeps a target's answers apart by status and type, not by header object, whatever order clients interleave in", async () => {
    const c = collector();
    const other = { siteId: (await createSiteWith((await signedInClient(server)).client, htmlFile())).id, versionHost: false };
    for (let i = 0; i < 4; i++) {
      c.record(site, "abcde.localhost", "/gone", { "user-agent": BROWSER }, "203.0.113.1", 200, HTML, 10);
      c.record(other, "fghij.localhost", "/gone", { "user-agent": BROWSER }, "203.0.113.1", 200, HTML, 7);
      c.record(site, "abcde.localhost", "/gone", { "user-agent": BROWSER }, "203.0.113.1", 404, HTML, 1);
      c.record(site, "abcde.localhost", "/gone", { "user-agent": BROWSER, referer: "https://news.example/" }, "203.0.113.1", 200, HTML, 10);
      c.record(site, "abcde.localhost", "/gone", { "user-agent": BROWSER }, "203.0.113.1", 200, { "content-type": "text/plain" }, 3);
      // Another encoding of the same page: its own header object, the same type.
      c.record(site, "abcde.localhost", "/gone", { "user-agent": BROWSER }, "203.0.113.1", 200, { ...HTML, "content-encoding": "br" }, 5);
    }
    await c.close();
    // One raw row per site and write, holding its entries.
    const batches = rowsOf<{ site_id: string; n: number }>(
      await server.ctx.db.execute(
        sql`select site_id, jsonb_array_length(events) as n from analytics_batches where site_id in (${site.siteId}, ${other.siteId})`,
      ),
    );
    expect(batches.map((b) => [b.site_id === site.siteId ? "site" : "other", Number(b.n)]).sort()).toEqual([
      ["other", 1],
      ["site", 4],
    ]);
    const written = await rows();
    expect(written.map((r) => [r.path, r.status, r.page_view, r.requests, Number(r.bytes)]).sort()).toEqual([
      ["/gone", 200, false, 4, 12],
      ["/gone", 200, true, 4, 40],
      ["/gone", 200, true, 8, 60],
      ["/gone", 404, false, 4, 4],
    ]);
    expect(
      written
        .filter((r) => r.page_view)
        .map((r) => (r as { referrer_host?: string | null }).referrer_host)
        .sort(),
    ).toEqual(["news.example", null]);
    await server.ctx.db.execute(sql`delete from analytics_batches where site_id = ${other.siteId}`);
  });

  it("gives one visitor the same hash all day and a new one the next day", async () => {
    const c = collector();
    const hashOn = async (at: string) => {
      clock = Date.parse(at);
      c.record(site, "abcde.localhost", "/", { "user-agent": BROWSER }, "203.0.113.1", 200, HTML, 1);
      await c.flush();
      return (await rows())[0]!.visitor;
    };
    const morning = await hashOn("2026-04-02T00:00:01Z");
    const evening = await hashOn("2026-04-02T23:59:59Z");
    const nextDay = await hashOn("2026-04-03T00:00:00Z");
    await c.close();
    expect(evening).toBe(morning);
    expect(nextDay).not.toBe(morning);
  });

  it("records the visitor's country when a GeoIP database is configured", async () => {
    const c = collector("203.0.113.0,203.0.113.255,NZ");
    c.record(site, "abcde.localhost", "/", { "user-agent": BROWSER }, "203.0.113.9", 200, HTML, 1);
    c.record(site, "abcde.localhost", "/", { "user-agent": BROWSER }, "192.0.2.1", 200, HTML, 1);
    await c.close();
    expect((await rows()).map((r) => r.country).sort()).toEqual(["NZ", null]);
  });

  it("folds a flood of distinct paths into one row instead of growing without bound", async () => {
    const c = collector();
    for (let i = 0; i < 25_000; i++) c.record(site, "abcde.localhost", `/random-${i}`, { "user-agent": "curl/8" }, "198.51.100.1", 404, HTML, 1);
    await c.close();
    const written = await rows();
    expect(written.length).toBe(20_001);
    expect(written.find((r) => r.path === "(other)")?.requests).toBe(5000);
  });

  it("keeps what waits within its part of the edge's budget: a flood of distinct visitors is counted and dropped", async () => {
    const memory = new EdgeMemory(MIN_BUDGET_BYTES);
    const part = memory.part("analytics");
    const warnings: Array<{ dropped?: number }> = [];
    const log = { error: () => {}, warn: (entry: { dropped?: number }) => warnings.push(entry) } as unknown as FastifyBaseLogger;
    const c = new AnalyticsCollector({ db: server.ctx.db, log, sitesDomain: "localhost", trustProxy: false, now: () => clock, memory });
    const before = memoryAfterCollection();
    for (let i = 0; i < 10_000; i++) {
      c.record(
        site,
        "abcde.localhost",
        `/p${i}`,
        { "user-agent": `Mozilla/5.0 ${i} ${"u".repeat(4000)}`, referer: `https://${i}.example/` },
        "203.0.113.1",
        200,
        HTML,
        1,
      );
    }
    const after = memoryAfterCollection();
    expect(part.used).toBeGreaterThan(part.cap / 2);
    expect(part.used).toBeLessThanOrEqual(part.cap);
    // Kept, the 10,000 visitors would hold some 80 MB.
    expect(after.heapUsed - before.heapUsed).toBeLessThan(part.cap + 2 * 1024 * 1024);
    await c.close();
    expect(part.used).toBe(0);
    const kept = (await rows()).length;
    expect(kept).toBeGreaterThan(10);
    expect(warnings.reduce((sum, w) => sum + (w.dropped ?? 0), 0)).toBe(10_000 - kept);
  });

  it("writes, when asked while the timer's write is running, what came after that write began too", async () => {
    const c = collector();
    c.record(site, "abcde.localhost", "/before", { "user-agent": BROWSER }, "203.0.113.1", 200, HTML, 1);
    const running = c.flush();
    c.record(site, "abcde.localhost", "/during", { "user-agent": BROWSER }, "203.0.113.1", 200, HTML, 1);
    await c.flush();
    expect((await rows()).map((r) => r.path).sort()).toEqual(["/before", "/during"]);
    await running;
    await c.close();
  });

  it("logs and drops a batch it cannot write, and keeps serving the next", async () => {
    const c = collector();
    c.record({ siteId: "not-a-uuid", versionHost: false }, "abcde.localhost", "/", {}, "203.0.113.1", 200, HTML, 1);
    await expect(c.flush()).resolves.toBeUndefined();
    c.record(site, "abcde.localhost", "/after", { "user-agent": BROWSER }, "203.0.113.1", 200, HTML, 1);
    await c.close();
    expect((await rows()).map((r) => r.path)).toEqual(["/after"]);
  });

  it("groups a large batch a slice at a time, letting requests be answered in between", async () => {
    // The database of an edge worker, whose statements the test sees as they are sent.
    let turns = 0;
    let turnsAtInsert: number | undefined;
    const watched = watchedDb(server.ctx.db);
    watched.onStatement = (text) => {
      if (text.includes("insert into analytics_batches")) turnsAtInsert ??= turns;
    };
    const c = new AnalyticsCollector({ db: watched.db, log: server.ctx.log, sitesDomain: "localhost", trustProxy: false, now: () => clock });
    c.record(site, "abcde.localhost", "/warm", { "user-agent": BROWSER }, "203.0.113.1", 200, HTML, 1);
    await c.flush(); // the day's salt, read once
    turnsAtInsert = undefined;

    const entries = 10 * ENTRIES_PER_TURN;
    for (let i = 0; i < entries; i++) c.record(site, "abcde.localhost", `/page-${i}`, { "user-agent": BROWSER }, "203.0.113.1", 200, HTML, 1);
    let counting = true;
    const count = () => {
      turns++;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    await c.close();
    counting = false;
    // Each slice gave the event loop a turn before the batch went to the database.
    expect(turnsAtInsert).toBeGreaterThanOrEqual(entries / ENTRIES_PER_TURN - 1);
    expect((await rows()).length).toBe(entries + 1);
  });
});
