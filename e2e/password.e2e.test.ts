// A password-protected site in the browser: the owner (Pro) sets a password in the Settings tab,
// then a fresh browser context sees the password page on the site, enters it and sees the site.
// Set BERTH_SCREENSHOTS to a directory to keep screenshots of the card and the page.
import { spawn } from "node:child_process";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SITE_PASSWORD_TEXT } from "../common/sites";
import { root, startBerth, type Berth } from "./support/berth";
import { launchBrowser } from "./support/browser";
import { createSiteInWizard, signInNewUser } from "./support/pages";

const shots = process.env.BERTH_SCREENSHOTS;

async function shoot(page: Page, name: string) {
  if (!shots) return;
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 800 });
    await page.screenshot({ path: path.join(shots, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

function setPlan(berth: Berth, email: string, plan: "free" | "pro"): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn("npm", ["run", "--silent", "berth", "--", "admin", "set-plan", email, plan], {
      cwd: root,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", BERTH_DATA_DIR: berth.dataDir, BERTH_APP_URL: berth.url },
      stdio: "ignore",
    });
    child.on("error", reject);
    child.on("exit", resolve);
  });
}

describe("password-protected sites in the browser", () => {
  let berth: Berth;
  let browser: Browser;
  beforeAll(async () => {
    [berth, browser] = await Promise.all([startBerth(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await berth?.stop();
  });

  it("sets a password in the Settings tab; a fresh context sees the password page, enters it and sees the site", async () => {
    const owner = await browser.newContext();
    const page = await owner.newPage();
    const user = await signInNewUser(page, berth);
    const id = await createSiteInWizard(page, berth, "Secret plans", {
      name: "index.html",
      mimeType: "text/html",
      buffer: Buffer.from("<!doctype html><title>Plans</title><h1>The secret plans</h1>"),
    });
    const siteUrl = (await page
      .getByRole("link", { name: /\.localhost/ })
      .first()
      .getAttribute("href"))!;

    // Free: the card is there but disabled, with the way to Pro.
    await page.goto(`${berth.url}/dashboard/sites/${id}?tab=settings`);
    await page.getByText("Password protection is a Pro feature.").waitFor();
    expect(await page.getByLabel("Password", { exact: true }).isDisabled()).toBe(true);
    await shoot(page, "password-card-free");

    expect(await setPlan(berth, user.email, "pro")).toBe(0);
    await page.reload();
    const field = page.getByLabel("Password", { exact: true });
    await field.waitFor();
    await expect.poll(() => field.isEnabled()).toBe(true);
    await field.fill("short");
    await page.getByLabel("Confirm password").fill("short");
    await page.getByRole("button", { name: "Set password" }).click();
    await page.getByText(SITE_PASSWORD_TEXT.tooShort).waitFor();
    await field.fill("open sesame 42");
    await page.getByLabel("Confirm password").fill("open sesame 42");
    await page.getByRole("button", { name: "Set password" }).click();
    await page.getByText(SITE_PASSWORD_TEXT.saved).waitFor();
    await page.getByText("Protected", { exact: true }).waitFor();
    await shoot(page, "password-card-pro");

    const visitor = await browser.newContext();
    const site = await visitor.newPage();
    const first = await site.goto(siteUrl);
    expect(first?.status()).toBe(401);
    await site.getByRole("heading", { name: "This site is password protected" }).waitFor();
    expect(await site.content()).not.toContain("Secret plans");
    await shoot(site, "password-page");
    await site.getByLabel("Password").fill("wrong password");
    await site.getByRole("button", { name: "Continue" }).click();
    await site.getByText("That password is not right").waitFor();
    await shoot(site, "password-page-error");
    await site.getByLabel("Password").fill("open sesame 42");
    await site.getByRole("button", { name: "Continue" }).click();
    await site.getByRole("heading", { name: "The secret plans" }).waitFor();
    expect(new URL(site.url()).pathname).toBe("/");

    await owner.close();
    await visitor.close();
  });
});
