// The dashboard and the contact page on a 375 px phone: every site tab reachable and visibly so,
// the greeting keeping the user's name, "Upgrade to Pro" keeping its label, toasts below the
// header's controls, and the contact form's outcome brought into view after sending.
// Set BERTH_SCREENSHOTS to a directory to keep screenshots.
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SITE_TEXT } from "../common/sites";
import { CONTACT_TEXT } from "../common/texts";
import { startBerth, type Berth } from "./support/berth";
import { launchBrowser } from "./support/browser";
import { createSiteInWizard, signInNewUser } from "./support/pages";
import { shoot } from "./support/shots";

const PHONE = { width: 375, height: 812 };
const NAME = "Alexandra Whitfield-Montgomery";

/** Whether the element's box lies inside the viewport. */
async function inViewport(locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  return box !== null && box.x >= 0 && box.y >= 0 && box.x + box.width <= PHONE.width && box.y + box.height <= PHONE.height;
}

describe("a 375 px phone", () => {
  let berth: Berth;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let siteId: string;

  beforeAll(async () => {
    [berth, browser] = await Promise.all([startBerth(), launchBrowser()]);
    context = await browser.newContext();
    page = await context.newPage();
    await signInNewUser(page, berth, NAME);
    siteId = await createSiteInWizard(page, berth, "Phone check", { name: "index.html", mimeType: "text/html", buffer: Buffer.from("<h1>hi</h1>") });
    await page.setViewportSize(PHONE);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await berth?.stop();
  });

  it("shows that more site tabs are off to the side, and reaches Settings", async () => {
    await page.goto(`${berth.url}/dashboard/sites/${siteId}`);
    const settings = page.getByRole("tab", { name: "Settings" });
    await settings.waitFor();
    expect(await inViewport(settings)).toBe(false);
    const more = page.getByRole("button", { name: "Show more tabs" });
    expect(await more.isVisible()).toBe(true);
    await more.click();
    await expect.poll(() => inViewport(settings)).toBe(true);
    await settings.click();
    await page.getByRole("tab", { name: "Settings", selected: true }).waitFor();
    await expect.poll(() => page.getByRole("button", { name: "Show earlier tabs" }).isVisible()).toBe(true);
    await shoot(page, "phone-site-tabs", { fullPage: false });

    // A link straight to the last tab opens with it in view.
    await page.goto(`${berth.url}/dashboard/sites/${siteId}?tab=settings`);
    await page.getByRole("tab", { name: "Settings", selected: true }).waitFor();
    await expect.poll(() => inViewport(page.getByRole("tab", { name: "Settings" }))).toBe(true);
  });

  it("keeps the user's whole name in the greeting and the Upgrade button's label", async () => {
    await page.goto(`${berth.url}/dashboard`);
    const greeting = page.getByTestId("greeting");
    await expect.poll(() => greeting.textContent()).toContain(NAME.split(" ")[0]);
    // Not cut off with an ellipsis: the text fits its box.
    const fits = await greeting.evaluate((el) => el.scrollWidth <= el.clientWidth);
    expect(fits).toBe(true);
    const upgrade = page.getByRole("button", { name: "Upgrade to Pro" });
    expect(await upgrade.innerText()).toContain("Upgrade to Pro");
    expect(await inViewport(upgrade)).toBe(true);
  });

  it("shows toasts below the header, not over its controls", async () => {
    await page.goto(`${berth.url}/dashboard/sites/${siteId}?tab=files`);
    // Making a folder says so in a toast; any toast will do.
    await page.getByRole("button", { name: SITE_TEXT.newFolder }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("textbox").fill("assets");
    await dialog.getByRole("textbox").press("Enter");
    const toast = page.locator("[data-sonner-toast]").first();
    await toast.waitFor();
    const header = await page.locator("header").first().boundingBox();
    expect(header).not.toBeNull();
    // The toast slides in from above, so its box is read once it has come to rest.
    await expect.poll(async () => (await toast.boundingBox())?.y ?? -1, { timeout: 5_000 }).toBeGreaterThanOrEqual(header!.y + header!.height);
  });

  it("brings the contact form's confirmation into view after sending", async () => {
    await page.goto(`${berth.url}/contact`);
    await page.getByLabel("Name").fill("Ada");
    await page.getByLabel("Email").fill("ada@example.com");
    await page.getByLabel("Subject").fill("Hello there");
    await page.getByLabel("Message").fill("A message long enough to reach the operator.");
    const send = page.getByRole("button", { name: /send/i });
    await send.scrollIntoViewIfNeeded();
    await send.click();
    const confirmation = page.getByText(CONTACT_TEXT.sent);
    await confirmation.waitFor();
    await expect.poll(() => inViewport(confirmation)).toBe(true);
  });
});
