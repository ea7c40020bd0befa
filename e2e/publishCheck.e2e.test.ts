// The publish check in the browser: a zipped site with a case mismatch and no index.html is
// published through the wizard, whose last step shows what the check found; the deployment card
// shows it too, and each fix is one click that publishes a new version the check then finds clean.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHECK_TEXT } from "../common/checks";
import { zipOf } from "../server/test/sites";
import { startBerth, type Berth } from "./support/berth";
import { launchBrowser } from "./support/browser";
import { openWizardUploadStep, signInNewUser } from "./support/pages";

/** Where screenshots go when BERTH_SCREENSHOTS names a directory (for looking, not for asserting). */
const SHOTS = process.env.BERTH_SCREENSHOTS;

describe("the publish check", () => {
  let berth: Berth;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    [berth, browser] = await Promise.all([startBerth(), launchBrowser()]);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    await signInNewUser(page, berth);
  });
  afterAll(async () => {
    await browser?.close();
    await berth?.stop();
  });

  const shoot = async (name: string) => {
    if (!SHOTS) return;
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  };

  it("shows the problems in the wizard and on the card, and fixes both in one click each", async () => {
    const zip = await zipOf([
      { name: "home.html", data: '<!doctype html><title>Home</title><h1>Welcome home</h1><img src="images/logo.png" alt="Logo">' },
      { name: "about.html", data: "<h1>About</h1>" },
      { name: "images/Logo.png", data: "not really a png" },
    ]);
    await openWizardUploadStep(page, berth, "Checked site");
    await page.locator('input[type="file"]').setInputFiles({ name: "site.zip", mimeType: "application/zip", buffer: zip });
    await page.getByRole("button", { name: "Create Site" }).click();

    // The last step: live, then the check's findings open by themselves.
    await page.getByRole("heading", { name: "Your site is live" }).waitFor({ timeout: 30_000 });
    await page.getByText(CHECK_TEXT.labels.case_mismatch, { exact: true }).first().waitFor({ timeout: 15_000 });
    await page.getByText(CHECK_TEXT.labels.no_index, { exact: true }).first().waitFor();
    await page.getByText("home.html:1").first().waitFor();
    await shoot("wizard-success");

    await page.getByRole("link", { name: "Go to site" }).click();
    await page.waitForURL(/\/dashboard\/sites\/[0-9a-f-]{36}/);
    await page.getByRole("tab", { name: "Deployments" }).click();
    await page.getByRole("button", { name: CHECK_TEXT.problems(2) }).click();
    await page.getByRole("button", { name: CHECK_TEXT.fixCase }).waitFor();
    await shoot("card-results");

    await page.getByRole("button", { name: CHECK_TEXT.fixCase }).click();
    await page.getByRole("heading", { name: "Version 2" }).waitFor({ timeout: 15_000 });
    const v2 = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Version 2" }) });
    await v2.getByRole("button", { name: CHECK_TEXT.problems(1) }).click({ timeout: 15_000 });
    await v2.getByRole("button", { name: CHECK_TEXT.indexButton("home.html") }).click();

    const v3 = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Version 3" }) });
    await v3.getByText(CHECK_TEXT.noProblems).waitFor({ timeout: 15_000 });
    await shoot("card-clean");

    // The site's address now serves the page, and the image under the name the page uses.
    const siteUrl = (await page
      .getByRole("link", { name: /\.localhost/ })
      .first()
      .getAttribute("href"))!;
    const visitor = await page.context().newPage();
    await visitor.goto(siteUrl);
    expect(await visitor.getByRole("heading", { name: "Welcome home" }).count()).toBe(1);
    // Chromium resolves *.localhost itself; Node's resolver would not.
    const image = await visitor.goto(new URL("images/logo.png", siteUrl).href);
    expect(image?.status()).toBe(200);
    await visitor.close();
  });
});
