// The Analytics tab over a year of figures: raw rows written with the edge collector's repository
// and rolled up by the worker's own service, then read in the browser (totals against the previous
// period, the 30-day and 12-month charts, the ranked lists, countries). Needs a PostgreSQL server
// (BERTH_TEST_POSTGRES_URL, as the API tests) so this process can write while Berth runs; skipped
// without one. Berth runs without its worker role so no prune or roll-up races the seeding.
// Set BERTH_SCREENSHOTS to a directory to keep screenshots of the tab with a year of data.
import { rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analyticsWindow, ANALYTICS_TEXT, percentChange, type AnalyticsRange } from "../common/analytics";
import { openDatabase, type Database } from "../server/db/client";
import { insertAnalyticsEvents, type AnalyticsEventRow } from "../server/test/rows";
import { BerthEvents } from "../server/events";
import { rollUpAnalytics } from "../server/services/rollUpAnalytics";
import { ensureSubdomainPool } from "../server/services/subdomainPool";
import { createScratchDatabase, postgresReachable, scratchName, type ScratchDatabase } from "../server/test/scratchDatabase";
import { startBerth, type Berth } from "./support/berth";
import { launchBrowser } from "./support/browser";
import { createSiteInWizard, signInNewUser } from "./support/pages";
import { shoot } from "./support/shots";

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;

const PAGES = ["/", "/pricing", "/blog/hello-world", "/docs/getting-started", "/about"];
const REFERRERS = ["news.ycombinator.com", "www.google.com", "github.com", null, null, "duckduckgo.com"];
const COUNTRIES = ["NZ", "DE", "US", "JP", "BR", "FR"];

/**
 * 400 days of made-up but regular traffic, growing towards today and quieter at weekends, plus
 * the last day hour by hour: pages, assets, bots, broken links and 304s.
 */
function seedRows(siteId: string, now: number): AnalyticsEventRow[] {
  const rows: AnalyticsEventRow[] = [];
  const minute = (ms: number) => new Date(Math.floor(ms / MINUTE) * MINUTE).toISOString();
  const base = { site_id: siteId, host_kind: "subdomain" as const, status: 200, page_view: true, bot: false, referrer_host: null, country: null };
  for (let d = 0; d < 400; d++) {
    const at = minute(now - d * DAY - 5 * MINUTE);
    const weekend = new Date(at).getUTCDay() % 6 === 0;
    const visitors = 3 + ((d * 7) % 5) + Math.floor((400 - d) / 40) - (weekend ? 3 : 0);
    for (let k = 0; k < visitors; k++) {
      const requests = 1 + ((d + k) % 3);
      rows.push({
        ...base,
        at,
        path: PAGES[(d + k * k) % PAGES.length]!,
        referrer_host: REFERRERS[(d * 3 + k) % REFERRERS.length]!,
        country: COUNTRIES[(d + k * 2) % COUNTRIES.length]!,
        visitor: `${d}-${k}`,
        requests,
        bytes: 6_000 * requests,
      });
    }
    rows.push({ ...base, at, path: "/assets/app.js", page_view: false, visitor: `${d}-0`, requests: visitors, bytes: 48_000 * visitors });
    rows.push({ ...base, at, path: "/", bot: true, page_view: false, visitor: null, requests: 2 + (d % 4), bytes: 6_000 });
    if (d % 3 === 0) rows.push({ ...base, at, path: "/old-pricing", status: 404, page_view: false, visitor: `${d}-0`, requests: 1, bytes: 1_200 });
    if (d % 5 === 0)
      rows.push({ ...base, at, path: "/images/team.jpg", status: 404, page_view: false, visitor: `${d}-1`, requests: 2, bytes: 2_400 });
    if (d % 4 === 0) rows.push({ ...base, at, path: "/", status: 304, page_view: false, visitor: `${d}-1`, requests: 1, bytes: 0 });
  }
  for (let h = 1; h < 24; h++) {
    const at = minute(now - h * HOUR - 5 * MINUTE);
    for (let k = 0; k < 1 + ((h * 5) % 7); k++) {
      rows.push({
        ...base,
        at,
        path: PAGES[(h + k) % PAGES.length]!,
        country: COUNTRIES[k % COUNTRIES.length]!,
        visitor: `h${h}-${k}`,
        requests: 1,
        bytes: 6_000,
      });
    }
  }
  return rows;
}

/** Page views of `range` and of the period before, as the roll-up counts them. */
function expectedViews(rows: readonly AnalyticsEventRow[], range: AnalyticsRange, now: Date): { views: number; previous: number } {
  const window = analyticsWindow(range, now);
  const sum = (from: Date, to: Date) =>
    rows
      .filter((r) => r.page_view && !r.bot && Date.parse(r.at) >= from.getTime() && Date.parse(r.at) < to.getTime())
      .reduce((total, r) => total + r.requests, 0);
  return { views: sum(window.start, window.end), previous: sum(window.previousStart, window.start) };
}

describe.skipIf(!(await postgresReachable()))("the Analytics tab over a year of figures (PostgreSQL)", () => {
  const dbName = scratchName("berth_e2e_analytics");
  let scratch: ScratchDatabase | undefined;
  let database: Database;
  let berth: Berth;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let siteId: string;
  let rows: AnalyticsEventRow[];
  let seededAt: Date;

  beforeAll(async () => {
    scratch = await createScratchDatabase(dbName);
    const { url } = scratch;
    // Any GeoIP file makes countries part of the report; the seeded rows carry their own.
    const geoip = path.join(os.tmpdir(), `${dbName}.csv`);
    writeFileSync(geoip, "127.0.0.0,127.255.255.255,NZ\n");
    [berth, browser] = await Promise.all([startBerth({ DATABASE_URL: url, BERTH_ROLES: "api,web,edge", BERTH_GEOIP_CSV: geoip }), launchBrowser()]);
    database = await openDatabase({ url });
    // The worker role is off, so fill the subdomain pool the way it would.
    await ensureSubdomainPool(database.db);

    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, timezoneId: "Europe/Berlin" });
    page = await context.newPage();
    await signInNewUser(page, berth);
    siteId = await createSiteInWizard(page, berth, "Product launch", {
      name: "index.html",
      mimeType: "text/html",
      buffer: Buffer.from("<!doctype html><title>Launch</title><h1>Launch</h1>"),
    });

    seededAt = new Date();
    rows = seedRows(siteId, seededAt.getTime());
    for (let i = 0; i < rows.length; i += 1000) await insertAnalyticsEvents(database.db, rows.slice(i, i + 1000));
    expect(await rollUpAnalytics({ db: database.db, events: new BerthEvents() })).toBeGreaterThan(400);
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await berth?.stop();
    await database?.close();
    await scratch?.drop();
    rmSync(path.join(os.tmpdir(), `${dbName}.csv`), { force: true });
  });

  const group = (label: string) => page.getByRole("group", { name: label });

  it("shows the 7 days' totals against the week before, and the ranked lists", async () => {
    await page.goto(`${berth.url}/dashboard/sites/${siteId}?tab=analytics`);
    const { views, previous } = expectedViews(rows, "7d", seededAt);
    await group(ANALYTICS_TEXT.views)
      .locator("[data-total]")
      .filter({ hasText: views.toLocaleString("en-US") })
      .waitFor();
    const change = percentChange(views, previous)!;
    expect(await group(ANALYTICS_TEXT.views).textContent()).toContain(`${change > 0 ? "Up" : "Down"} ${Math.abs(change)}% on the previous 7 days`);

    const chart = page.getByRole("img", { name: new RegExp(`^Page views per day over the last 7 days: ${views.toLocaleString("en-US")} in total`) });
    expect(await chart.locator("[data-bucket]").count()).toBe(7);

    expect(await page.getByRole("list", { name: ANALYTICS_TEXT.topPages }).getByRole("listitem").count()).toBe(PAGES.length);
    const broken = page.getByRole("list", { name: ANALYTICS_TEXT.notFound });
    await broken.getByText("/old-pricing").waitFor();
    await broken.getByText("/images/team.jpg").waitFor();
    await page.getByRole("list", { name: ANALYTICS_TEXT.statuses }).getByText("Not Modified").waitFor();
    await page.getByRole("list", { name: ANALYTICS_TEXT.countries }).getByText("New Zealand").waitFor();
    await page.getByRole("list", { name: ANALYTICS_TEXT.topReferrers }).getByText("news.ycombinator.com").waitFor();
    await shoot(page, "analytics-year-7d");
  });

  it("draws 30 and 365 daily buckets, and reads them with the keyboard", async () => {
    await page.getByRole("radio", { name: "30 days" }).click();
    const month = page.getByRole("img", { name: /^Page views per day over the last 30 days/ });
    await expect.poll(() => month.locator("[data-bucket]").count()).toBe(30);
    await shoot(page, "analytics-year-30d");

    await page.getByRole("radio", { name: "12 months" }).click();
    const year = page.getByRole("img", { name: /^Page views per day over the last 12 months/ });
    await expect.poll(() => year.locator("[data-bucket]").count()).toBe(365);
    const { views } = expectedViews(rows, "12m", seededAt);
    expect(await group(ANALYTICS_TEXT.views).locator("[data-total]").textContent()).toBe(views.toLocaleString("en-US"));

    // Focus lands on today; Home goes to the first day, and the status line reads it out.
    await year.focus();
    await page.keyboard.press("Home");
    const first = analyticsWindow("12m", seededAt).buckets[0]!;
    const firstDay = first.toLocaleDateString("en-US", { weekday: "long", month: "long", day: "numeric", year: "numeric", timeZone: "UTC" });
    await expect.poll(() => page.getByRole("status").filter({ hasText: firstDay }).count()).toBe(1);
    await shoot(page, "analytics-year-12m");
  });

  it("shows the day hour by hour in the viewer's zone", async () => {
    await page.getByRole("radio", { name: "24 hours" }).click();
    const day = page.getByRole("img", { name: /^Page views per hour over the last 24 hours/ });
    await expect.poll(() => day.locator("[data-bucket]").count()).toBe(24);
    await day.locator("[data-bucket]").nth(12).hover();
    await page.locator("[data-chart-tooltip]").waitFor();
    await shoot(page, "analytics-year-24h");
  });
});
