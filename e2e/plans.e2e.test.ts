// The operator's own plans in the browser: Berth started with a BERTH_PLANS_FILE of three plans
// shows those plans, their price labels and limits, on the pricing page, in the docs and the FAQ,
// and in the plans dialog, whose 'Upgrade' names the file's upgradeTo. A card of a feature the
// account's plan lacks names the first of the file's plans that has it, and its button opens the
// dialog on that plan: a request made there names it, and reaches the admin's list so. With daily
// backups off, the FAQ promises none.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DASHBOARD_SHELL_TEXT, DASHBOARD_TEXT } from "../common/texts";
import { startBerth, type Berth } from "./support/berth";
import { launchBrowser } from "./support/browser";
import { createSiteInWizard, signInAs, signInNewUser } from "./support/pages";
import { shoot } from "./support/shots";

const MB = 1024 * 1024;
const admin = { name: "Olga Operator", email: `olga.${Date.now()}@example.com`, password: "a long enough password" };
const GB = 1024 * MB;

const FILE = {
  plans: [
    {
      id: "hobby",
      name: "Hobby",
      price: "$0",
      priceNote: "forever",
      description: "For a page or two.",
      default: true,
      limits: { storageBytes: 200 * MB, maxFileBytes: 20 * MB, deploymentsKept: 5 },
    },
    {
      id: "maker",
      name: "Maker",
      price: "$6",
      priceNote: "per month",
      description: "For makers with a few sites.",
      limits: { storageBytes: 20 * GB, maxFileBytes: 500 * MB, deploymentsKept: 25 },
      features: { customDomains: true, passwordProtection: true, expiringLinks: true, siteExpiry: true },
    },
    {
      id: "studio",
      name: "Studio",
      price: "Custom",
      priceNote: "per team",
      description: "For studios that keep everything.",
      limits: { storageBytes: null, maxFileBytes: null, deploymentsKept: null },
      features: {
        customDomains: true,
        passwordProtection: true,
        expiringLinks: true,
        privateSites: true,
        siteExpiry: true,
        fileVersioning: true,
        pointInTimeRecovery: true,
      },
    },
  ],
  upgradeTo: "maker",
};

describe("the operator's own plans", () => {
  const scratch = mkdtempSync(path.join(os.tmpdir(), "berth-own-plans-"));
  let berth: Berth;
  let browser: Browser;
  let page: Page;
  let adminContext: BrowserContext | undefined;
  let siteId: string;
  let member: { email: string };

  beforeAll(async () => {
    const plansFile = path.join(scratch, "plans.json");
    writeFileSync(plansFile, JSON.stringify(FILE));
    [berth, browser] = await Promise.all([startBerth({ BERTH_PLANS_FILE: plansFile, BERTH_ADMIN_EMAILS: admin.email }), launchBrowser()]);
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  }, 120_000);

  afterAll(async () => {
    await adminContext?.close();
    await browser?.close();
    await berth?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it("shows the file's plans on the pricing page, with their labels and limits", async () => {
    await page.goto(berth.url);
    await page.locator("#pricing li").first().waitFor();
    const cards = page.locator("#pricing article");
    expect(await cards.locator("h3").allInnerTexts()).toEqual(["Hobby", "Maker", "Studio"]);
    const [hobby, maker, studio] = await cards.allInnerTexts();
    expect(hobby).toContain("$0");
    expect(hobby).toContain("For a page or two.");
    expect(hobby).toContain("200 MB storage");
    expect(hobby).toContain("Files up to 20 MB each");
    expect(hobby).toContain("File history and restores from the last 5 versions");
    // Backups are off on this server (startBerth's default): no card promises them.
    expect(hobby).not.toContain("Daily backups");
    expect(maker).toContain("$6");
    expect(maker).toContain("per month");
    expect(maker).toContain("Everything in Hobby");
    expect(maker).toContain("20 GB storage");
    expect(maker).toContain("Custom domains");
    expect(maker).not.toContain("Private sites");
    expect(studio).toContain("Everything in Maker");
    expect(studio).toContain("Unlimited storage");
    expect(studio).toContain("Unlimited size per file");
    expect(studio).toContain("Point-in-time recovery");
    expect(studio).toContain("Most room");
    for (const text of [hobby, maker]) expect(text).not.toMatch(/unlimited/i);
    await shoot(page, "plans-pricing", { fullPage: false });
    await page.locator("#pricing").scrollIntoViewIfNeeded();
    await shoot(page, "plans-pricing-section");
  });

  it("answers the FAQ from the same plans, and promises no daily backup while they are off", async () => {
    const faq = page.locator("#faq");
    const answer = async (question: string) => {
      await faq.getByRole("button", { name: question }).click();
      return faq.locator("[role=region][data-state=open]").innerText();
    };
    expect(await answer("How much storage do I get?")).toBe(
      "Hobby accounts get 200 MB of total storage. Maker accounts get 20 GB. Studio accounts get unlimited storage.",
    );
    expect(await answer("How large can a single file be?")).toContain("up to 500 MB on the Maker plan");
    expect(await answer("What do the other plans add?")).toContain(
      "Maker adds a custom domain, password-protected links, expiring links and site expiry",
    );
    const backups = await answer("Are my files backed up?");
    expect(backups).not.toMatch(/daily backups are included|once a day/i);
    expect(backups).toContain("Ask the operator of this server");
  });

  it("lists the same plans in the docs' table", async () => {
    await page.goto(`${berth.url}/docs#limits`);
    const table = page.locator("#limits table");
    await table.waitFor();
    expect(await table.locator("thead th").allInnerTexts()).toEqual(["Limit", "Hobby", "Maker", "Studio"]);
    const storage = await table.locator("tr", { hasText: "Total storage" }).locator("td").allInnerTexts();
    expect(storage).toEqual(["200 MB", "20 GB", "Unlimited"]);
  });

  it("offers the file's upgradeTo in the dashboard, and compares all its plans in the dialog", async () => {
    member = await signInNewUser(page, berth, "Plan Reader");
    const upgrade = page.getByRole("button", { name: DASHBOARD_TEXT.upgrade("Maker") });
    await upgrade.click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("heading", { name: DASHBOARD_TEXT.upgrade("Maker") }).waitFor();
    expect(await dialog.getByRole("region").evaluateAll((cards) => cards.map((card) => card.getAttribute("aria-label")))).toEqual([
      "Hobby plan",
      "Maker plan",
      "Studio plan",
    ]);
    await dialog.getByRole("region", { name: "Hobby plan" }).getByText("Current plan").waitFor();
    expect(await dialog.getByRole("region", { name: "Studio plan" }).innerText()).toContain("Unlimited");
    await dialog.getByRole("button", { name: DASHBOARD_SHELL_TEXT.upgradeRequest("Maker") }).waitFor();
    await shoot(page, "plans-dialog", { fullPage: false });
  });

  it("names the first of the file's plans that has a feature in the cards that offer it", async () => {
    await page.keyboard.press("Escape");
    const id = await createSiteInWizard(page, berth, "Plan notes", {
      name: "index.html",
      mimeType: "text/html",
      buffer: Buffer.from("<!doctype html><title>Plan notes</title><h1>Plan notes</h1>"),
    });
    siteId = id;

    // Private sites are Studio's only, though 'Upgrade' offers Maker; share links are Maker's.
    await page.goto(`${berth.url}/dashboard/sites/${id}?tab=sharing`);
    const privateSites = page.getByText("Private sites are a Studio feature.");
    await privateSites.waitFor();
    const visibility = privateSites.locator("xpath=ancestor::div[1]");
    expect(await visibility.innerText()).toContain("Private sites are a Studio feature. Upgrade to Studio to make this site private.");
    await visibility.getByRole("button", { name: DASHBOARD_TEXT.upgrade("Studio") }).waitFor();
    await page.getByText("Share links are a Maker feature.").waitFor();
    expect(await page.getByText(/Pro feature|Upgrade to Pro/).count()).toBe(0);
    await shoot(page, "plans-sharing-prompt");

    await page.goto(`${berth.url}/dashboard/sites/${id}?tab=settings`);
    const domains = page.getByText("Custom domains are a Maker feature.").locator("xpath=ancestor::div[1]");
    await domains.waitFor();
    expect(await domains.innerText()).toContain("Custom domains are a Maker feature. Upgrade to Maker to add a domain.");
    await domains.getByRole("button", { name: DASHBOARD_TEXT.upgrade("Maker") }).click();
    await page.getByRole("dialog").getByRole("region", { name: "Maker plan" }).waitFor();
    await page.keyboard.press("Escape");
    expect(await page.getByText(/Pro feature|Upgrade to Pro/).count()).toBe(0);
  });

  it("opens the dialog on the plan a card names, and a request made there reaches the admins naming it", async () => {
    await page.goto(`${berth.url}/dashboard/sites/${siteId}?tab=sharing`);
    const visibility = page.getByText("Private sites are a Studio feature.").locator("xpath=ancestor::div[1]");
    await visibility.getByRole("button", { name: DASHBOARD_TEXT.upgrade("Studio") }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("heading", { name: DASHBOARD_TEXT.upgrade("Studio") }).waitFor();
    await dialog.getByText(DASHBOARD_SHELL_TEXT.upgradeBody("Studio")).waitFor();
    // Every plan above the account's has its own action; the card's plan is the one in focus.
    const studio = dialog.getByRole("button", { name: DASHBOARD_SHELL_TEXT.upgradeRequest("Studio") });
    await dialog.getByRole("button", { name: DASHBOARD_SHELL_TEXT.upgradeRequest("Maker") }).waitFor();
    await dialog.getByText(DASHBOARD_SHELL_TEXT.upgradeRequestHint("Maker or Studio")).waitFor();
    await expect.poll(() => studio.evaluate((button) => button === document.activeElement)).toBe(true);
    expect(await dialog.getByRole("region", { name: "Studio plan" }).getAttribute("class")).toContain("ring-1");
    expect(await dialog.getByRole("region", { name: "Maker plan" }).getAttribute("class")).not.toContain("ring-1");
    await shoot(page, "plans-dialog-studio", { fullPage: false });

    await studio.click();
    await dialog.getByText(DASHBOARD_SHELL_TEXT.upgradePending("Studio")).waitFor();
    expect(await dialog.getByRole("button", { name: /^Request / }).count()).toBe(0);
    await shoot(page, "plans-dialog-studio-pending", { fullPage: false });
    await page.keyboard.press("Escape");

    adminContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const adminPage = await adminContext.newPage();
    await signInAs(adminPage, berth, admin);
    await adminPage.goto(`${berth.url}/dashboard/admin`);
    await adminPage.getByText("Every account on this server, the messages sent to its operator and the requests for Maker or Studio.").waitFor();
    await adminPage.getByRole("tab", { name: /Upgrade requests/ }).click();
    const row = adminPage.getByRole("list", { name: "Upgrade requests" }).getByRole("listitem").filter({ hasText: member.email });
    await row.waitFor();
    expect(await row.innerText()).toContain(`${member.email} · asks for Studio · asked`);
    await shoot(adminPage, "plans-admin-requests", { fullPage: false });
    await row.getByRole("button", { name: `Approve ${member.email}'s request` }).click();
    await adminPage
      .locator("[data-sonner-toast]")
      .filter({ hasText: `${member.email} is on Studio now` })
      .first()
      .waitFor();
    expect((await (await page.request.get(`${berth.url}/api/stats`)).json()).plan).toBe("studio");
  });
});
