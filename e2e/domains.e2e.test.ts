// Custom domains in the browser: /dashboard/domains and the site's Domains card, against a real
// Berth whose DNS checks go to a DNS server this test runs on loopback (BERTH_DNS_SERVERS).
// Set BERTH_SCREENSHOTS to a directory to keep screenshots of the page and the card.
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DOMAIN_ERRORS, DOMAIN_TEXT } from "../common/domains";
import { TestDnsServer } from "../server/test/dnsServer";
import { setPlan, startBerth, type Berth } from "./support/berth";
import { launchBrowser } from "./support/browser";
import { createSiteInWizard, signInNewUser } from "./support/pages";
import { shoot } from "./support/shots";

/** The value of the record of `type` in a domain's DNS records, as the page shows it. */
async function recordValue(item: Locator, type: string): Promise<{ name: string; value: string }> {
  // The row's text starts "Type A" then the stacked label "Name", so "A" does not match "AAAA".
  const row = item
    .getByRole("list", { name: "DNS records" })
    .getByRole("listitem")
    .filter({ hasText: new RegExp(`^Type ${type}Name`) });
  const [name, value] = await row.locator("code").allTextContents();
  return { name: name!, value: value! };
}

async function addDomain(page: Page, domain: string, siteId: string): Promise<Locator> {
  await page.getByLabel("Site", { exact: true }).selectOption(siteId);
  await page.getByLabel("Domain", { exact: true }).fill(domain);
  await page.getByRole("button", { name: "Add domain" }).click();
  const item = page.getByRole("listitem", { name: domain.toLowerCase(), exact: true });
  await item.waitFor();
  return item;
}

describe("custom domains in the browser", () => {
  let dns: TestDnsServer;
  let berth: Berth;
  let browser: Browser;
  let owner: BrowserContext;
  let page: Page;
  let siteId: string;
  let docsId: string;

  beforeAll(async () => {
    dns = await TestDnsServer.start();
    [berth, browser] = await Promise.all([
      startBerth({ BERTH_DNS_SERVERS: dns.address, BERTH_PUBLIC_IPS: "192.0.2.10,2001:db8::10" }),
      launchBrowser(),
    ]);
    owner = await browser.newContext();
    page = await owner.newPage();
    const user = await signInNewUser(page, berth);
    siteId = await createSiteInWizard(page, berth, "Portfolio", {
      name: "index.html",
      mimeType: "text/html",
      buffer: Buffer.from("<!doctype html><title>Portfolio</title><h1>My portfolio</h1>"),
    });
    docsId = await createSiteInWizard(page, berth, "Product docs", {
      name: "index.html",
      mimeType: "text/html",
      buffer: Buffer.from("<!doctype html><title>Docs</title><h1>Docs</h1>"),
    });

    // Free: the sidebar leads to the page, which offers the plans dialog instead of the form.
    await page.goto(`${berth.url}/dashboard`);
    expect(await page.getByRole("link", { name: "Use your own domain" }).getAttribute("href")).toBe("/dashboard/domains");
    await shoot(page, "overview-tips");
    await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Domains" }).click();
    await page.waitForURL(`${berth.url}/dashboard/domains`);
    await page.getByText("Custom domains are a Pro feature.").waitFor();
    expect(await page.getByLabel("Domain", { exact: true }).count()).toBe(0);
    await page.getByText("No custom domains yet").waitFor();
    await shoot(page, "domains-free");

    expect(await setPlan(berth, user.email, "pro")).toBe(0);
    await page.reload();
    await page.getByLabel("Domain", { exact: true }).waitFor();
  });
  afterAll(async () => {
    await owner?.close();
    await browser?.close();
    await berth?.stop();
    await dns?.close();
  });

  it("adding a domain shows the DNS records to create and its status as it is checked", async () => {
    await page.getByLabel("Domain", { exact: true }).fill("not a domain");
    await page.getByRole("button", { name: "Add domain" }).click();
    await page.getByText(DOMAIN_TEXT.invalid).waitFor();

    const item = await addDomain(page, "WWW.Portfolio.test", siteId);
    await page.getByText(DOMAIN_TEXT.added).first().waitFor();
    expect(await item.getByRole("link", { name: "Portfolio", exact: true }).getAttribute("href")).toBe(`/dashboard/sites/${siteId}`);

    const cname = await recordValue(item, "CNAME");
    expect(cname.name).toBe("www.portfolio.test");
    expect(cname.value).toMatch(/^[a-z]{5}\.localhost$/);
    const txt = await recordValue(item, "TXT");
    expect(txt.name).toBe("_berth.www.portfolio.test");
    expect(txt.value.length).toBeGreaterThanOrEqual(16);

    // No records yet: the job keeps checking, and the page follows each try without a reload.
    await item.getByText(/^(Pending|Checking DNS)$/).waitFor();
    await item.getByText(/^Try [2-9] of 10$/).waitFor({ timeout: 20_000 });
    await item.getByRole("button", { name: "Check again" }).waitFor();
  });

  it("a domain whose records appear goes active, one without them fails with 'Domain validation timed out'", { timeout: 150_000 }, async () => {
    const apex = await addDomain(page, "portfolio.test", siteId);
    const a = await recordValue(apex, "A");
    expect(a).toEqual({ name: "portfolio.test", value: "192.0.2.10" });
    expect((await recordValue(apex, "AAAA")).value).toBe("2001:db8::10");

    const docs = await addDomain(page, "docs.example.test", docsId);
    const { value: target } = await recordValue(docs, "CNAME");
    const { value: token } = await recordValue(docs, "TXT");
    dns.set("docs.example.test", { cname: target });
    dns.set("_berth.docs.example.test", { txt: [token] });

    // DNS check, the 30 s wait, the certificate step, then active: all seen live on the page.
    await docs.getByText("Issuing certificate", { exact: true }).waitFor({ timeout: 30_000 });
    await docs.getByText("Active", { exact: true }).waitFor({ timeout: 70_000 });
    expect(await docs.getByRole("link", { name: /docs\.example\.test/ }).getAttribute("href")).toMatch(/^http:\/\/docs\.example\.test(:\d+)?\/$/);

    await apex.getByText("Failed", { exact: true }).waitFor({ timeout: 70_000 });
    await apex.getByText(DOMAIN_ERRORS.validationTimedOut).waitFor();
    await apex.getByText("10 of 10 tries used").waitFor();
    if (process.env.BERTH_SCREENSHOTS) {
      // One more, still being checked, so the screenshot shows every kind of status.
      const shop = await addDomain(page, "shop.example.test", docsId);
      await shop.getByText(/^Try [2-9] of 10$/).waitFor({ timeout: 20_000 });
      await shoot(page, "domains-pro");
    }

    // The site's Domains card shows the same domains, with the same actions.
    await page.goto(`${berth.url}/dashboard/sites/${siteId}?tab=settings`);
    const card = page.getByRole("list", { name: "Custom domains" });
    await card.getByRole("listitem", { name: "portfolio.test", exact: true }).waitFor();
    await card.getByRole("listitem", { name: "www.portfolio.test", exact: true }).waitFor();
    expect(await card.getByRole("listitem", { name: "docs.example.test", exact: true }).count()).toBe(0);
    await shoot(page, "site-settings-domains");

    // Check again starts over; Remove asks first.
    const failed = card.getByRole("listitem", { name: "portfolio.test", exact: true });
    await failed.getByRole("button", { name: "Check again" }).click();
    await page.getByText(DOMAIN_TEXT.checking).first().waitFor();
    await failed.getByText(/^(Pending|Checking DNS)$/).waitFor();
    await failed.getByRole("button", { name: /^Remove/ }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Remove domain" }).click();
    await page.getByText(DOMAIN_TEXT.removed).first().waitFor();
    await failed.waitFor({ state: "detached" });
  });
});
