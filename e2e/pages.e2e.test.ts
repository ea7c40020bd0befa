import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONTACT_TEXT, NOT_FOUND_TEXT } from "../common/texts";
import { startBerth, type Berth } from "./support/berth";
import { launchBrowser } from "./support/browser";
import { confirmEmail, signIn, signUp, waitFor } from "./support/pages";
import { shoot } from "./support/shots";

async function buttonsAndLinks(page: Page): Promise<string[]> {
  const main = page.locator("main");
  const names = await main.locator("a, button").allInnerTexts();
  return names.map((n) => n.trim()).filter(Boolean);
}

describe("public pages in the browser", () => {
  let berth: Berth;
  let browser: Browser;
  beforeAll(async () => {
    [berth, browser] = await Promise.all([startBerth(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await berth?.stop();
  });

  it("shows every not-found variant", async () => {
    const page = await browser.newPage();

    const response = await page.goto(`${berth.url}/no/such/page`);
    expect(response?.status()).toBe(404);
    await page.getByText(NOT_FOUND_TEXT.title).waitFor();
    await page.getByText(NOT_FOUND_TEXT.body).waitFor();
    await page.getByRole("link", { name: NOT_FOUND_TEXT.signIn }).waitFor();
    let names = await buttonsAndLinks(page);
    expect(names).toContain(NOT_FOUND_TEXT.goHome);
    expect(names).not.toContain(NOT_FOUND_TEXT.goToDashboard);
    expect(names).not.toContain(NOT_FOUND_TEXT.backToDashboard);

    await page.goto(`${berth.url}/dashboard/no-such-page`);
    await page.getByText(NOT_FOUND_TEXT.dashboardBody).waitFor();
    await page.getByRole("link", { name: NOT_FOUND_TEXT.signIn }).waitFor();

    const user = { name: "Alan Turing", email: "alan@example.com", password: "enigma machine" };
    await signUp(page, berth, user);
    await confirmEmail(page, berth, user.email);
    await signIn(page, user.email, user.password);
    await page.waitForURL(`${berth.url}/dashboard`);

    await page.goto(`${berth.url}/dashboard/no-such-page`);
    await page.getByRole("link", { name: NOT_FOUND_TEXT.backToDashboard }).waitFor();
    names = await buttonsAndLinks(page);
    expect(names).toContain(NOT_FOUND_TEXT.goHome);
    expect(names).not.toContain(NOT_FOUND_TEXT.signIn);

    await page.goto(`${berth.url}/no/such/page`);
    await page.getByRole("link", { name: NOT_FOUND_TEXT.goToDashboard }).waitFor();
    await page.getByRole("link", { name: NOT_FOUND_TEXT.goToDashboard }).click();
    await page.waitForURL(`${berth.url}/dashboard`);
    await page.close();
  });

  it("validates the contact form, then sends a valid message", async () => {
    const page = await browser.newPage();
    await page.goto(`${berth.url}/contact`);
    await page.getByRole("button", { name: "Send Message" }).click();
    for (const message of [CONTACT_TEXT.nameRequired, CONTACT_TEXT.emailRequired, CONTACT_TEXT.subjectRequired, CONTACT_TEXT.messageRequired]) {
      await page.getByText(message).waitFor();
    }

    await page.getByLabel("Name").fill("Hedy Lamarr");
    await page.getByLabel("Email").fill("hedy@");
    await page.getByLabel("Subject").fill("Frequency hopping");
    await page.getByLabel("Message").fill("Could Berth host my patent drawings?");
    await page.getByRole("button", { name: "Send Message" }).click();
    await page.getByText(CONTACT_TEXT.emailInvalid).waitFor();
    expect(berth.outbox.messagesTo("operator@berth.test")).toHaveLength(0);

    await page.getByLabel("Email").fill("hedy@example.com");
    await page.getByRole("button", { name: "Send Message" }).click();
    await page.getByRole("alert").filter({ hasText: CONTACT_TEXT.sent }).waitFor();
    expect(await page.getByLabel("Name").inputValue()).toBe("");

    const mail = await waitFor(() => {
      const found = berth.outbox.messagesTo("operator@berth.test")[0];
      if (!found) throw new Error("no mail yet");
      return found;
    });
    expect(mail.subject).toBe("[Berth contact] Frequency hopping");
    expect(mail.text).toContain("Could Berth host my patent drawings?");
    await page.close();
  });

  it("renders the API reference from the server's own OpenAPI document, on a desktop and a phone", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${berth.url}/docs#api`);
    await page.locator("#api").getByRole("link", { name: "API reference", exact: true }).click();
    await page.waitForURL(`${berth.url}/docs/api`);

    // A section per tag, an operation per route, each with who may call it.
    const sites = page.locator("section#sites");
    await sites.locator("h2#sites-title", { hasText: "Sites" }).waitFor();
    const list = page.locator("article#getSites");
    await list.getByRole("heading", { name: "List your sites" }).waitFor();
    expect(await list.getByText("Token: read").count()).toBe(1);
    expect(await list.locator("code").first().innerText()).toBe("/api/sites");
    expect(await page.locator("article#getMe").getByText("Session", { exact: true }).count()).toBe(1);
    expect(await page.locator("article#getHealth").getByText("Public", { exact: true }).count()).toBe(1);
    expect(await page.locator("article#getAdminUsers").getByText("Admin", { exact: true }).count()).toBe(1);

    // A JSON body's fields, the required ones marked; an answer's fields behind a disclosure.
    const create = page.locator("article#postTokens");
    const nameRow = create.locator("dl[aria-label='JSON body'] > div").filter({ has: page.locator("dt", { hasText: /^name/ }) });
    expect(await nameRow.innerText()).toMatch(/name\s*required[\s\S]*string/i);
    await create.locator("summary").first().click();
    await create.getByText("secret", { exact: true }).waitFor();

    // A link to one operation lands on it once the document has loaded.
    await page.goto(`${berth.url}/docs/api#postSitesBySiteIdShareLinks`);
    await page.locator("article#postSitesBySiteIdShareLinks").getByRole("heading", { name: "Create a share link" }).waitFor();
    await expect
      .poll(() => page.locator("article#postSitesBySiteIdShareLinks").evaluate((el) => Math.round(el.getBoundingClientRect().top)))
      .toBeLessThan(150);

    // Nothing wider than a phone's screen.
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto(`${berth.url}/docs/api`);
    await page.locator("article#getSites").waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.setViewportSize({ width: 1280, height: 800 });
    await shoot(page, "docs-api");
    await page.close();
  });

  it("turns the landing page's navigation opaque after 10 px of scroll", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(berth.url);
    const nav = page.locator("header").first();
    const background = () => nav.evaluate((el) => getComputedStyle(el).backgroundColor);
    const transparent = await background();
    await page.evaluate(() => window.scrollTo(0, 10));
    await page.waitForTimeout(100);
    expect(await background()).toBe(transparent);
    await page.evaluate(() => window.scrollTo(0, 11));
    await expect.poll(background).not.toBe(transparent);
    await page.close();
  });
});
