// The caps per account in the browser: with each set to 1, the second site, the second custom
// domain and the second share link are refused, and the dashboard shows the server's message,
// which names the cap. The caps themselves are tested in server/security/accountCaps.test.ts.
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, it } from "vitest";
import { CAP_TEXT } from "../common/limits";
import { setPlan, startBerth, type Berth } from "./support/berth";
import { launchBrowser } from "./support/browser";
import { createSiteInWizard, openWizardUploadStep, signInNewUser } from "./support/pages";

const page1 = { name: "index.html", mimeType: "text/html", buffer: Buffer.from("<!doctype html><title>One</title><h1>One</h1>") };

describe("caps per account in the browser", () => {
  let berth: Berth;
  let browser: Browser;
  let owner: BrowserContext;
  let page: Page;
  let siteId: string;

  beforeAll(async () => {
    [berth, browser] = await Promise.all([
      startBerth({ BERTH_MAX_SITES_PER_ACCOUNT: "1", BERTH_MAX_DOMAINS_PER_ACCOUNT: "1", BERTH_MAX_SHARE_LINKS_PER_SITE: "1" }),
      launchBrowser(),
    ]);
    owner = await browser.newContext();
    page = await owner.newPage();
    const user = await signInNewUser(page, berth);
    siteId = await createSiteInWizard(page, berth, "One", page1);
    await setPlan(berth, user.email, "pro");
  });
  afterAll(async () => {
    await owner?.close();
    await browser?.close();
    await berth?.stop();
  });

  it("the wizard shows why a second site is refused", async () => {
    await openWizardUploadStep(page, berth, "Two");
    await page.locator('input[type="file"]').setInputFiles({ ...page1, buffer: Buffer.from("<h1>Two</h1>") });
    await page.getByRole("button", { name: "Create Site" }).click();
    await page.getByText(CAP_TEXT.sites(1)).first().waitFor();
  });

  it("the domain form shows why a second domain is refused", async () => {
    await page.goto(`${berth.url}/dashboard/domains`);
    const add = async (domain: string) => {
      await page.getByLabel("Domain", { exact: true }).fill(domain);
      await page.getByRole("button", { name: "Add domain" }).click();
    };
    await add("www.first-cap.test");
    await page.getByRole("listitem", { name: "www.first-cap.test", exact: true }).waitFor();
    await add("www.second-cap.test");
    await page.getByText(CAP_TEXT.customDomains(1)).first().waitFor();
  });

  it("the sharing tab shows why a second share link is refused", async () => {
    await page.goto(`${berth.url}/dashboard/sites/${siteId}?tab=sharing`);
    const create = async (name: string) => {
      await page.getByRole("button", { name: "New share link" }).click();
      const dialog = page.getByRole("dialog", { name: "New share link" });
      await dialog.getByLabel("Name").fill(name);
      await dialog.getByRole("button", { name: "Create link" }).click();
      return dialog;
    };
    await (await create("First")).waitFor({ state: "detached" });
    await create("Second");
    await page.getByText(CAP_TEXT.shareLinks(1)).first().waitFor();
  });
});
