import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SITE_TEXT } from "../common/sites";
import { startBerth, type Berth } from "./support/berth";
import { launchBrowser } from "./support/browser";
import { createSiteInWizard, signInNewUser } from "./support/pages";
import { solidPng } from "./support/png";
import { zipOf } from "../server/test/sites";

describe("sites in the browser", () => {
  let berth: Berth;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    [berth, browser] = await Promise.all([startBerth(), launchBrowser()]);
    context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    await signInNewUser(page, berth);
  });
  afterAll(async () => {
    await browser?.close();
    await berth?.stop();
  });

  const siteUrl = async () => {
    const link = page.getByRole("link", { name: /\.localhost/ }).first();
    return (await link.getAttribute("href"))!;
  };

  it("publishes an HTML file from the wizard and opens it at its subdomain", async () => {
    await createSiteInWizard(page, berth, "Hello page", {
      name: "hello.html",
      mimeType: "text/html",
      buffer: Buffer.from("<!doctype html><title>Hello</title><h1 id=greeting>Hello from Berth</h1>"),
    });
    await page.getByRole("heading", { name: "Hello page" }).waitFor();
    const url = await siteUrl();
    expect(url).toMatch(new RegExp(`^http://[a-z]{5}\\.localhost:${berth.port}/$`));

    const visitor = await context.newPage();
    await visitor.goto(url);
    expect(await visitor.locator("#greeting").textContent()).toBe("Hello from Berth");
    await visitor.close();
  });

  it("renders a zipped site with its stylesheet and images", async () => {
    const zip = await zipOf([
      {
        name: "portfolio/index.html",
        data: '<!doctype html><link rel="stylesheet" href="css/site.css"><h1>Portfolio</h1><img id="logo" src="img/logo.png" alt="logo">',
      },
      { name: "portfolio/css/site.css", data: "h1 { color: rgb(200, 30, 40); }" },
      { name: "portfolio/img/logo.png", data: solidPng(24, 12, [20, 120, 220]) },
    ]);
    await createSiteInWizard(page, berth, "Portfolio", { name: "portfolio.zip", mimeType: "application/zip", buffer: zip });
    const visitor = await context.newPage();
    await visitor.goto(await siteUrl());
    await visitor.locator("h1").waitFor();
    expect(await visitor.locator("h1").evaluate((el) => getComputedStyle(el).color)).toBe("rgb(200, 30, 40)");
    await expect.poll(() => visitor.locator("#logo").evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(24);
    await visitor.close();
  });

  it("manages files: a folder, an upload into it, a download and a delete", async () => {
    await createSiteInWizard(page, berth, "Files site", { name: "index.html", mimeType: "text/html", buffer: Buffer.from("<p>home</p>") });

    await page.getByRole("button", { name: SITE_TEXT.newFolder }).first().click();
    await page.getByRole("dialog").getByRole("button", { name: SITE_TEXT.createFolder }).click();
    await page.getByText(SITE_TEXT.folderNameRequired).first().waitFor();
    await page.getByLabel(SITE_TEXT.folderNameLabel).fill("notes");
    await page.getByRole("dialog").getByRole("button", { name: SITE_TEXT.createFolder }).click();
    await page.getByText(SITE_TEXT.folderCreatedDescription("notes")).first().waitFor();

    await page
      .getByRole("button", { name: "notes" })
      .or(page.getByRole("link", { name: "notes" }))
      .first()
      .click();
    await page.getByText(SITE_TEXT.noFiles).waitFor();
    await page.getByRole("button", { name: SITE_TEXT.upload, exact: true }).first().click();
    const dialog = page.getByRole("dialog");
    await dialog.locator('input[type="file"]').setInputFiles({ name: "todo.html", mimeType: "text/html", buffer: Buffer.from("<li>ship it</li>") });
    await dialog.getByRole("button", { name: SITE_TEXT.upload, exact: true }).click();
    await page.getByText(SITE_TEXT.uploadSucceeded).first().waitFor();
    await page.getByText("todo.html").first().waitFor();

    const url = await siteUrl();
    const visitor = await context.newPage();
    await visitor.goto(`${url}notes/todo.html`);
    expect(await visitor.locator("li").textContent()).toBe("ship it");

    await page.getByRole("button", { name: "Actions for todo.html" }).click();
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("menuitem", { name: "Download" }).click()]);
    expect(download.suggestedFilename()).toBe("todo.html");

    await page.getByRole("button", { name: "Actions for todo.html" }).click();
    await page.getByRole("menuitem", { name: "Delete" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
    await page.getByText(SITE_TEXT.noFiles).waitFor();
    await visitor.reload();
    expect(await visitor.locator("h1").textContent()).toBe("Page not found");
    await visitor.close();
  });

  it("marks a site for deletion, stops serving it, and restores it", async () => {
    await createSiteInWizard(page, berth, "Short lived", { name: "index.html", mimeType: "text/html", buffer: Buffer.from("<p id=alive>alive</p>") });
    const sitePage = page.url();
    const url = await siteUrl();

    await page.getByRole("button", { name: SITE_TEXT.delete, exact: true }).click();
    const confirm = page.getByRole("alertdialog");
    await confirm.getByText(SITE_TEXT.deleteTitle).waitFor();
    await confirm.getByRole("button", { name: SITE_TEXT.deleteConfirm }).click();
    await page.getByText(SITE_TEXT.deleted, { exact: true }).first().waitFor();
    await page.waitForURL(`${berth.url}/dashboard/sites`);

    const visitor = await context.newPage();
    const gone = await visitor.goto(url);
    expect(gone?.status()).toBe(404);

    await page.goto(sitePage);
    await page.getByText(SITE_TEXT.deletionBanner(14)).waitFor();
    await page.getByRole("button", { name: SITE_TEXT.restore }).click();
    await page.getByText(SITE_TEXT.restored, { exact: true }).first().waitFor();
    const back = await visitor.goto(url);
    expect(back?.status()).toBe(200);
    expect(await visitor.locator("#alive").textContent()).toBe("alive");
    await visitor.close();
  });

  it("rolls back to an earlier deployment with one click", async () => {
    const id = await createSiteInWizard(page, berth, "Versions", {
      name: "index.html",
      mimeType: "text/html",
      buffer: Buffer.from("<p id=v>first</p>"),
    });
    const url = await siteUrl();
    // A second version, uploaded through the Files tab.
    await page.getByRole("button", { name: SITE_TEXT.upload, exact: true }).first().click();
    const dialog = page.getByRole("dialog");
    await dialog
      .locator('input[type="file"]')
      .setInputFiles({ name: "index.html", mimeType: "text/html", buffer: Buffer.from("<p id=v>second</p>") });
    await dialog.getByRole("button", { name: SITE_TEXT.upload, exact: true }).click();
    // The wizard's own success toast may still be showing, so wait for the dialog to close.
    await dialog.waitFor({ state: "hidden" });

    const visitor = await context.newPage();
    await visitor.goto(url);
    expect(await visitor.locator("#v").textContent()).toBe("second");

    await page.goto(`${berth.url}/dashboard/sites/${id}?tab=deployments`);
    await page.getByText(SITE_TEXT.recentDeployments).waitFor();
    await page.getByText("Version 2").first().waitFor();
    await page.getByRole("button", { name: "Roll back" }).first().click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Roll back" }).click();
    await expect
      .poll(async () => {
        await visitor.reload();
        return visitor.locator("#v").textContent();
      })
      .toBe("first");
    await visitor.close();
  });
});
