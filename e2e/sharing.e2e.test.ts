// Share links and private sites in the browser. The owner (Pro) makes links in the Sharing tab;
// fresh browser contexts stand for the people the links are sent to.
// Set BERTH_SCREENSHOTS to a directory to keep screenshots of the tab and the visitors' pages.
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SHARE_LINK_TEXT, SHARE_LINK_UI_TEXT, SHARE_PAGE_TEXT } from "../common/shareLinks";
import { setPlan, startBerth, type Berth } from "./support/berth";
import { launchBrowser } from "./support/browser";
import { createSiteInWizard, signInNewUser } from "./support/pages";
import { shoot } from "./support/shots";

const SITE_HTML = "<!doctype html><title>Quarterly report</title><h1>The quarterly report</h1>";

/** A time as a datetime-local field takes it, in the browser's (and this process's) zone. */
function localInput(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

/** Creates a link in the New share link dialog and returns its URL as the list shows it. */
async function createLink(page: Page, fields: { name: string; maxViews?: string; password?: string; expires?: Date }): Promise<string> {
  await page.getByRole("button", { name: "New share link" }).click();
  const dialog = page.getByRole("dialog", { name: "New share link" });
  await dialog.getByLabel("Name").fill(fields.name);
  if (fields.maxViews) await dialog.getByLabel("Maximum views").fill(fields.maxViews);
  if (fields.password) await dialog.getByLabel("Password", { exact: true }).fill(fields.password);
  if (fields.expires) await dialog.getByLabel("Expires").fill(localInput(fields.expires));
  await dialog.getByRole("button", { name: "Create link" }).click();
  await dialog.waitFor({ state: "detached" });
  const item = page.getByRole("listitem", { name: fields.name, exact: true });
  const url = (await item.locator("code").textContent())!;
  expect(url).toMatch(/^http:\/\/[a-z]+\.localhost:\d+\/_share\/\S+$/);
  return url;
}

describe("share links and private sites in the browser", () => {
  let berth: Berth;
  let browser: Browser;
  let owner: BrowserContext;
  let page: Page;
  let siteUrl: string;

  beforeAll(async () => {
    [berth, browser] = await Promise.all([startBerth(), launchBrowser()]);
    owner = await browser.newContext();
    page = await owner.newPage();
    const user = await signInNewUser(page, berth);
    const id = await createSiteInWizard(page, berth, "Quarterly report", {
      name: "index.html",
      mimeType: "text/html",
      buffer: Buffer.from(SITE_HTML),
    });
    siteUrl = (await page
      .getByRole("link", { name: /\.localhost/ })
      .first()
      .getAttribute("href"))!;

    // Free: the tab explains the feature and leads to the plans dialog.
    await page.goto(`${berth.url}/dashboard/sites/${id}?tab=sharing`);
    await page.getByText("Share links are a Pro feature.").waitFor();
    expect(await page.getByRole("switch", { name: SHARE_LINK_UI_TEXT.privateSwitch }).isDisabled()).toBe(true);
    expect(await page.getByRole("button", { name: "New share link" }).count()).toBe(0);
    await shoot(page, "sharing-tab-free");

    expect(await setPlan(berth, user.email, "pro")).toBe(0);
    await page.reload();
    await page.getByRole("button", { name: "New share link" }).waitFor();
  });
  afterAll(async () => {
    await owner?.close();
    await browser?.close();
    await berth?.stop();
  });

  it("a link with a view limit of 2 opens the site twice, then shows the expired page", async () => {
    const url = await createLink(page, { name: "Board members", maxViews: "2" });
    await page.getByText(SHARE_LINK_TEXT.created).first().waitFor();
    const item = page.getByRole("listitem", { name: "Board members", exact: true });
    await item.getByText("0 / 2 views").waitFor();

    for (const open of [1, 2]) {
      const visitor = await browser.newContext();
      const site = await visitor.newPage();
      const response = await site.goto(url);
      expect(response?.status(), `open ${open}`).toBe(200);
      await site.getByRole("heading", { name: "The quarterly report" }).waitFor();
      expect(new URL(site.url()).pathname).toBe("/");
      await visitor.close();
    }

    const third = await browser.newContext();
    const gone = await third.newPage();
    const response = await gone.goto(url);
    expect(response?.status()).toBe(410);
    await gone.getByRole("heading", { name: SHARE_PAGE_TEXT.goneTitle }).waitFor();
    expect(await gone.content()).not.toContain("The quarterly report");
    await shoot(gone, "share-link-expired-page");
    await third.close();

    // The dashboard counts both opens, calls the link exhausted and lists who opened it.
    await page.reload();
    await item.getByText("Exhausted", { exact: true }).waitFor();
    await item.getByText("2 / 2 views").waitFor();
    await item.getByRole("button", { name: "Access log" }).click();
    const opens = item.getByRole("list", { name: "Opens" }).getByRole("listitem");
    await expect.poll(() => opens.count()).toBe(2);
    expect(await opens.first().textContent()).toMatch(/Chrome \d+ on Linux/);
  });

  it("a private site shows the private page without a link and the site with one", async () => {
    const link = await createLink(page, { name: "Design agency" });
    const item = page.getByRole("listitem", { name: "Design agency", exact: true });
    await item.getByText("0 views").waitFor();

    const toggle = page.getByRole("switch", { name: SHARE_LINK_UI_TEXT.privateSwitch });
    await toggle.click();
    await page.getByText(SHARE_LINK_TEXT.visibilityPrivate).first().waitFor();
    await expect.poll(() => toggle.getAttribute("aria-checked")).toBe("true");

    const stranger = await browser.newContext();
    const blocked = await stranger.newPage();
    const refused = await blocked.goto(siteUrl);
    expect(refused?.status()).toBe(403);
    await blocked.getByRole("heading", { name: SHARE_PAGE_TEXT.privateTitle }).waitFor();
    expect(await blocked.content()).not.toContain("The quarterly report");
    await shoot(blocked, "private-site-page");
    await stranger.close();

    const guest = await browser.newContext();
    const site = await guest.newPage();
    const opened = await site.goto(link);
    expect(opened?.status()).toBe(200);
    await site.getByRole("heading", { name: "The quarterly report" }).waitFor();
    // The link's cookie keeps the site open in that browser, at its public address too.
    const again = await site.goto(siteUrl);
    expect(again?.status()).toBe(200);
    await site.getByRole("heading", { name: "The quarterly report" }).waitFor();
    await guest.close();

    await page.reload();
    await item.getByText("1 view").waitFor();
  });

  it("revokes, restores and deletes a link", async () => {
    const inThreeDays = new Date(Date.now() + 3 * 24 * 60 * 60 * 1000 + 5 * 60_000);
    const url = await createLink(page, { name: "Old contractor", password: "open sesame", expires: inThreeDays });
    const item = page.getByRole("listitem", { name: "Old contractor", exact: true });
    await item.getByText("Password", { exact: true }).waitFor();
    await item.getByText("Expires in 3 days").waitFor();
    await item.getByRole("button", { name: /^Revoke/ }).click();
    await item.getByText("Revoked", { exact: true }).waitFor();

    const visitor = await browser.newContext();
    const gone = await visitor.newPage();
    expect((await gone.goto(url))?.status()).toBe(410);
    await visitor.close();

    await item.getByRole("button", { name: /^Restore/ }).click();
    await item.getByText("Active", { exact: true }).waitFor();

    // Realistic screenshots: one log open, the new-link dialog on its own.
    const board = page.getByRole("listitem", { name: "Board members", exact: true });
    await board.getByRole("button", { name: "Access log" }).click();
    await board.getByRole("list", { name: "Opens" }).waitFor();
    await shoot(page, "sharing-tab-pro");
    await page.getByRole("button", { name: "New share link" }).click();
    await shoot(page, "new-share-link-dialog", { fullPage: false });
    await page.getByRole("button", { name: "Cancel" }).click();

    await item.getByRole("button", { name: /^Delete/ }).click();
    const confirm = page.getByRole("alertdialog");
    await confirm.getByRole("button", { name: "Delete link" }).click();
    await page.getByText(SHARE_LINK_TEXT.deleted).first().waitFor();
    await item.waitFor({ state: "detached" });
  });
});
