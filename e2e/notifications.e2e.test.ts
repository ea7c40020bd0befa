// The bell in the browser: empty at first, then a deploy that succeeds and one that fails (sent
// from outside the open page, as the CLI would) show up live, with the unread badge; marking all
// read clears the badge. Where the user wants them comes from Settings, Notifications.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NOTIFICATIONS_TEXT as T, NOTIFICATION_KIND_TEXT } from "../common/notifications";
import { SETTINGS_TEXT } from "../common/texts";
import { startBerth, type Berth } from "./support/berth";
import { launchBrowser } from "./support/browser";
import { createSiteInWizard, signInNewUser } from "./support/pages";
import { shoot } from "./support/shots";

describe("the notification bell", () => {
  let berth: Berth;
  let browser: Browser;
  beforeAll(async () => {
    [berth, browser] = await Promise.all([startBerth(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await berth?.stop();
  });

  const bell = (page: Page) => page.getByRole("button", { name: new RegExp(`^${T.title}`) });
  const badge = (page: Page) => page.getByTestId("notification-badge");
  const feed = (page: Page) => page.getByRole("dialog", { name: T.title });

  /** Uploads a file to the site through the API with the page's session, as another tab or the CLI would. */
  async function upload(page: Page, siteId: string, file: { name: string; content: string }) {
    const response = await page.request.post(`${berth.url}/api/sites/${siteId}/files`, {
      headers: { origin: berth.url },
      multipart: { file: { name: file.name, mimeType: file.name.endsWith(".html") ? "text/html" : "text/plain", buffer: Buffer.from(file.content) } },
    });
    expect(response.status(), await response.text()).toBe(201);
  }

  it("shows deploys live, with an unread badge that marking all read clears", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await signInNewUser(page, berth, "Grace Hopper");

    // Nothing yet: no badge, and the feed says so.
    await bell(page).click();
    await feed(page).getByText(T.empty).waitFor();
    expect(await badge(page).count()).toBe(0);
    await shoot(page, "notifications-empty", { fullPage: false });
    await page.keyboard.press("Escape");

    const siteId = await createSiteInWizard(page, berth, "Compiler Docs", {
      name: "index.html",
      mimeType: "text/html",
      buffer: Buffer.from("<h1>Docs</h1>"),
    });
    await page.goto(`${berth.url}/dashboard`);
    await expect.poll(() => badge(page).textContent(), { timeout: 15_000 }).toBe("1");

    // While the dashboard is open, a deploy elsewhere fails: the badge and the list follow.
    await upload(page, siteId, { name: "_redirects", content: "/a /b 301\n/c /d 303\n" });
    await expect.poll(() => badge(page).textContent(), { timeout: 15_000 }).toBe("2");
    await bell(page).click();
    const items = feed(page).getByRole("listitem");
    await items.filter({ hasText: "Deployment of Compiler Docs failed" }).waitFor();
    await items.filter({ hasText: "Version 1 of Compiler Docs is live" }).waitFor();
    expect(await items.count()).toBe(2);
    await feed(page).getByText(T.unread(2)).waitFor();

    // The list is live while open too: the fixed file publishes version 3.
    await upload(page, siteId, { name: "_redirects", content: "/a /b 301\n" });
    await items.filter({ hasText: "Version 3 of Compiler Docs is live" }).waitFor({ timeout: 15_000 });
    await expect.poll(() => badge(page).textContent()).toBe("3");
    await shoot(page, "notifications-feed", { fullPage: false });

    // One read: its own button; then all.
    await items
      .filter({ hasText: "Version 3 of Compiler Docs is live" })
      .getByRole("button", { name: `${T.markRead}: Version 3 of Compiler Docs is live` })
      .click();
    await expect.poll(() => badge(page).textContent()).toBe("2");
    await feed(page).getByRole("button", { name: T.markAllRead }).click();
    await expect.poll(() => badge(page).count()).toBe(0);
    expect(
      await feed(page)
        .getByRole("button", { name: new RegExp(`^${T.markRead}:`) })
        .count(),
    ).toBe(0);
    await feed(page).getByText(T.unread(2)).waitFor({ state: "detached" });
    await feed(page).getByRole("button", { name: T.markAllRead }).waitFor({ state: "detached" });

    // A notice leads to its page; after a reload everything is still read.
    await items.filter({ hasText: "Deployment of Compiler Docs failed" }).getByRole("link").click();
    await page.waitForURL(`${berth.url}/dashboard/sites/${siteId}?tab=deployments`);
    await page.reload();
    await bell(page).waitFor();
    await page.waitForLoadState("networkidle");
    expect(await badge(page).count()).toBe(0);
    await page.close();
  });

  it("lets the user keep a kind out of the feed in Settings", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await signInNewUser(page, berth, "Ada Lovelace");
    await page.goto(`${berth.url}/dashboard/settings?tab=notifications`);
    const label = SETTINGS_TEXT.notifications.channelLabel("Feed", NOTIFICATION_KIND_TEXT.deploy_succeeded.label);
    const toggle = page.getByRole("switch", { name: label });
    await expect.poll(() => toggle.getAttribute("aria-checked")).toBe("true");
    expect(
      await page
        .getByRole("switch", { name: SETTINGS_TEXT.notifications.channelLabel("E-mail", NOTIFICATION_KIND_TEXT.deploy_failed.label) })
        .getAttribute("aria-checked"),
    ).toBe("true");
    await shoot(page, "notifications-settings");
    await toggle.click();
    await page.getByText(SETTINGS_TEXT.notifications.saved).first().waitFor();
    await page.reload();
    await expect.poll(() => page.getByRole("switch", { name: label }).getAttribute("aria-checked")).toBe("false");

    await createSiteInWizard(page, berth, "Quiet Site", { name: "index.html", mimeType: "text/html", buffer: Buffer.from("<p>quiet</p>") });
    await page.goto(`${berth.url}/dashboard`);
    await page.waitForLoadState("networkidle");
    expect(await badge(page).count()).toBe(0);
    await page.close();
  });
});
