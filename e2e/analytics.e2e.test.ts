// Site analytics end to end: real requests to a site's host go through Berth's edge collector and
// the worker's roll-up, and the open Analytics tab shows them without a reload (the `analytics`
// server event). Then the site list's 7-day views and the overview's bandwidth.
// Set BERTH_SCREENSHOTS to a directory to keep screenshots of the tab (empty and with visits).
import http from "node:http";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANALYTICS_TEXT } from "../common/analytics";
import { bucketTitle } from "../web/components/analytics/chart";
import { startBerth, type Berth } from "./support/berth";
import { launchBrowser } from "./support/browser";
import { createSiteInWizard, signInNewUser } from "./support/pages";
import { shoot } from "./support/shots";

const CHROME_UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const BOT_UA = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
/** The dashboard's zone in this test: hour labels must follow it, not the server's UTC. */
const TIME_ZONE = "America/New_York";
/** Edge flush (1 s) + roll-up (every 10 s) + the event, with room for a loaded machine. */
const ROLL_UP_WAIT_MS = 30_000;

/** A GET to a site's host from 127.0.0.1, as a visitor's browser (or a bot) would send it. */
function visit(port: number, host: string, pathname: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path: pathname, headers: { host, accept: "text/html", ...headers } }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("site analytics in the browser", () => {
  let berth: Berth;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let siteId: string;
  let siteHost: string;

  beforeAll(async () => {
    [berth, browser] = await Promise.all([startBerth(), launchBrowser()]);
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, timezoneId: TIME_ZONE });
    page = await context.newPage();
    await signInNewUser(page, berth);
    siteId = await createSiteInWizard(page, berth, "Visited site", {
      name: "index.html",
      mimeType: "text/html",
      buffer: Buffer.from("<!doctype html><title>Visited</title><h1>Hello, visitor</h1>"),
    });
    const href = (await page
      .getByRole("link", { name: /\.localhost/ })
      .first()
      .getAttribute("href"))!;
    siteHost = new URL(href).host;
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await berth?.stop();
  });

  const totalOf = (label: string) => page.getByRole("group", { name: label }).locator("[data-total]");

  it("shows the empty state before the first visit", async () => {
    await page.goto(`${berth.url}/dashboard/sites/${siteId}?tab=analytics`);
    await page.getByRole("heading", { name: ANALYTICS_TEXT.emptyTitle }).waitFor();
    await page.getByText(ANALYTICS_TEXT.emptyBody).waitFor();
    expect(await page.getByRole("radiogroup", { name: "Time range" }).count()).toBe(0);
    await shoot(page, "analytics-empty");
  });

  it("counts real visits and shows them in the open tab without a reload", async () => {
    const browserLike = { "user-agent": CHROME_UA, "accept-language": "en-US,en;q=0.9" };
    expect(await visit(berth.port, siteHost, "/", browserLike)).toBe(200);
    expect(await visit(berth.port, siteHost, "/", { ...browserLike, referer: "https://news.example.com/story/42" })).toBe(200);
    expect(await visit(berth.port, siteHost, "/missing-page", browserLike)).toBe(404);
    expect(await visit(berth.port, siteHost, "/", { "user-agent": BOT_UA })).toBe(200);

    // The page is still the one opened on the empty state: the roll-up's event brings the figures.
    await totalOf(ANALYTICS_TEXT.views).filter({ hasText: /^2$/ }).waitFor({ timeout: ROLL_UP_WAIT_MS });
    expect(await totalOf(ANALYTICS_TEXT.visitors).textContent()).toBe("1");
    expect(await totalOf(ANALYTICS_TEXT.bandwidth).textContent()).not.toBe("0 Bytes");
    await page.getByText(`${ANALYTICS_TEXT.bots}: 1 in the last 7 days`).waitFor();
    // Nothing before: "New", not a percentage of zero.
    expect(await page.getByRole("group", { name: ANALYTICS_TEXT.views }).textContent()).toContain("New");

    const chart = page.getByRole("img", { name: /^Page views per day over the last 7 days: 2 in total/ });
    await chart.waitFor();
    expect(await chart.locator("[data-bucket]").count()).toBe(7);

    const pages = page.getByRole("list", { name: ANALYTICS_TEXT.topPages });
    expect(await pages.getByRole("listitem").first().textContent()).toMatch(/^\/2 views$/);
    await page.getByRole("list", { name: ANALYTICS_TEXT.topReferrers }).getByText("news.example.com").waitFor();
    await page.getByRole("list", { name: ANALYTICS_TEXT.notFound }).getByText("/missing-page").waitFor();
    await page.getByRole("list", { name: ANALYTICS_TEXT.statuses }).getByText("Not Found").waitFor();
    await page.getByText(ANALYTICS_TEXT.noCountries).waitFor();
    await shoot(page, "analytics-visits");
  });

  it("switches to 24 hours: one bucket per hour, labelled in the viewer's time", async () => {
    await page.getByRole("radio", { name: "24 hours" }).click();
    await page.waitForURL(/[?&]range=24h/);
    const chart = page.getByRole("img", { name: /^Page views per hour over the last 24 hours: 2 in total/ });
    await chart.waitFor();
    const buckets = chart.locator("[data-bucket]");
    expect(await buckets.count()).toBe(24);

    // The newest hour holds the visits; its tooltip names it in New York time and says it is not over.
    const last = buckets.last();
    const start = new Date((await last.getAttribute("data-bucket"))!);
    await last.hover();
    const tooltip = page.locator("[data-chart-tooltip]");
    await tooltip.waitFor();
    const text = (await tooltip.textContent())!;
    expect(text).toContain(bucketTitle(start, "hour", TIME_ZONE));
    expect(text).toContain("so far");
    expect(text).toMatch(/Page views2/);
  });

  it("shows 7-day views on the site list and the bandwidth on the overview", async () => {
    await page.goto(`${berth.url}/dashboard/sites`);
    const card = page.getByRole("article").filter({ hasText: "Visited site" });
    await card.getByText("2 views · 7 days").waitFor();
    await shoot(page, "sites-list-views");

    await page.goto(`${berth.url}/dashboard`);
    const bandwidth = page
      .getByRole("region", { name: "Statistics" })
      .locator("div")
      .filter({ hasText: /^Bandwidth/ })
      .first();
    await bandwidth.getByText("Last 30 days, all sites").waitFor();
    expect(await bandwidth.textContent()).toMatch(/Bandwidth\d+(\.\d+)? (Bytes|KB)/);
    await shoot(page, "overview-bandwidth");
  });

  it("says when the figures cannot be loaded, and tries again", async () => {
    const failing = "**/api/sites/*/analytics?*";
    await page.route(failing, (route) =>
      route.fulfill({
        status: 500,
        contentType: "application/json",
        body: JSON.stringify({ error: { code: "internal", message: "The database is not answering" } }),
      }),
    );
    await page.goto(`${berth.url}/dashboard/sites/${siteId}?tab=analytics`);
    // The dashboard retries a server error once before it gives up.
    await page.getByRole("heading", { name: ANALYTICS_TEXT.loadFailed }).waitFor();
    await page.getByText("The database is not answering").waitFor();
    await shoot(page, "analytics-error");

    await page.unroute(failing);
    await page.getByRole("button", { name: "Try again" }).click();
    await totalOf(ANALYTICS_TEXT.views).filter({ hasText: /^2$/ }).waitFor();
  });
});
