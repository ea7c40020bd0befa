// API tokens in the browser: made on /dashboard/integrations, used from outside the browser as a
// script would (Node's fetch with `Authorization: Bearer`), and revoked there.
// Set BERTH_SCREENSHOTS to a directory to keep screenshots of the page and the create dialog.
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_TOKEN_TEXT } from "../common/apiTokens";
import type { SiteListResponse } from "../common/sites";
import { startBerth, type Berth } from "./support/berth";
import { launchBrowser } from "./support/browser";
import { createSiteInWizard, signInNewUser } from "./support/pages";
import { shoot } from "./support/shots";

/** GET /api/sites as a script sends it: no cookies, only the token. */
function sitesWithToken(berth: Berth, secret: string): Promise<Response> {
  return fetch(`http://127.0.0.1:${berth.port}/api/sites`, { headers: { authorization: `Bearer ${secret}` } });
}

/** Fills in the create dialog, submits it and returns the secret it shows once; the dialog stays on that step. */
async function createToken(page: Page, fields: { name: string; sites?: string; permission: string; expiry: string }, shot?: string): Promise<string> {
  // The header's button once there are tokens, the empty state's before: one at a time.
  await page.getByRole("button", { name: "Create token" }).click();
  const dialog = page.getByRole("dialog", { name: "Create API token" });
  await dialog.getByLabel("Name").fill(fields.name);
  if (fields.sites) {
    // Each site is offered as "Name (subdomain)".
    const sites = dialog.getByLabel("Sites");
    const site = await sites.locator("option", { hasText: `${fields.sites} (` }).getAttribute("value");
    if (!site) throw new Error(`the Sites list does not offer ${fields.sites}`);
    await sites.selectOption(site);
  }
  await dialog.getByRole("radio", { name: fields.permission, exact: true }).check();
  await dialog.getByLabel("Expires after").selectOption({ label: fields.expiry });
  if (shot) await shoot(page, shot, { fullPage: false });
  await dialog.getByRole("button", { name: "Create token" }).click();

  const created = page.getByRole("dialog", { name: "Token created" });
  await created.getByText(API_TOKEN_TEXT.copyOnce).waitFor();
  return created.getByLabel("Your new token").inputValue();
}

describe("API tokens on the Integrations page", () => {
  let berth: Berth;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    [berth, browser] = await Promise.all([startBerth(), launchBrowser()]);
    context = await browser.newContext();
    page = await context.newPage();
    await signInNewUser(page, berth);
    await createSiteInWizard(page, berth, "Portfolio", {
      name: "index.html",
      mimeType: "text/html",
      buffer: Buffer.from("<!doctype html><title>Portfolio</title><h1>Portfolio</h1>"),
    });
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await berth?.stop();
  });

  it("a token made in the dashboard works for a script until it is revoked", async () => {
    await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Integrations" }).first().click();
    await page.waitForURL(`${berth.url}/dashboard/integrations`);
    await page.getByRole("heading", { name: "Integrations", level: 1 }).waitFor();
    await page.getByRole("heading", { name: "No API tokens yet" }).waitFor();
    await shoot(page, "integrations-empty");

    const secret = await createToken(page, { name: "CI deploy", permission: "Deploy", expiry: "30 days" }, "integrations-create-dialog");
    expect(secret).toMatch(/^berth_[A-Za-z0-9_-]{40,}$/);
    await shoot(page, "integrations-secret", { fullPage: false });
    await page.getByRole("dialog", { name: "Token created" }).getByRole("button", { name: "Done" }).click();
    await page.getByRole("dialog").waitFor({ state: "detached" });

    // Outside the browser: no cookie, only the token.
    const answer = await sitesWithToken(berth, secret);
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as SiteListResponse).sites.map((site) => site.name)).toEqual(["Portfolio"]);

    // The list shows what the token is, and (after that request) when and where it was last used.
    await page.reload();
    const item = page.getByRole("listitem", { name: "CI deploy", exact: true });
    await item.getByText("Deploy", { exact: true }).waitFor();
    await item.getByText("All sites", { exact: true }).waitFor();
    await item.getByText(`${secret.slice(0, 10)}…`, { exact: true }).waitFor();
    await item.getByText(/^Expires /).waitFor();
    await item.getByText("Last used just now from 127.0.0.1", { exact: true }).waitFor();
    expect(await item.textContent()).not.toContain(secret);

    // A second token, for one site and read only, that was never used.
    await createToken(page, { name: "Portfolio preview", sites: "Portfolio", permission: "Read only", expiry: "Never" });
    await page.getByRole("dialog", { name: "Token created" }).getByRole("button", { name: "Done" }).click();
    const second = page.getByRole("listitem", { name: "Portfolio preview", exact: true });
    await second.getByText("Never used", { exact: true }).waitFor();
    await second.getByText("Never expires", { exact: true }).waitFor();
    await second.getByText("Portfolio", { exact: true }).waitFor();
    expect(await page.getByRole("list", { name: "API tokens" }).locator(":scope > li").count()).toBe(2);
    await shoot(page, "integrations-two-tokens");

    // Revoking asks once, says what stops working, and takes effect on the next request.
    for (const name of ["CI deploy", "Portfolio preview"]) {
      await page
        .getByRole("listitem", { name, exact: true })
        .getByRole("button", { name: `Revoke ${name}` })
        .click();
      const confirm = page.getByRole("alertdialog", { name: `Revoke the token “${name}”?` });
      await confirm.getByText(/stop working at once/).waitFor();
      await confirm.getByRole("button", { name: "Revoke token" }).click();
      await confirm.waitFor({ state: "detached" });
      await page.getByRole("listitem", { name, exact: true }).waitFor({ state: "detached" });
    }
    await page.getByText(API_TOKEN_TEXT.revoked).first().waitFor();
    await page.getByRole("heading", { name: "No API tokens yet" }).waitFor();
    expect((await sitesWithToken(berth, secret)).status).toBe(401);
  });
});
