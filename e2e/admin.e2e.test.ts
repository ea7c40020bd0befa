// The operator's admin page in the browser: an admin named in BERTH_ADMIN_EMAILS manages other
// accounts; everyone else gets the not-found screen.
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCOUNT_TEXT } from "../common/account";
import type { MeResponse } from "../common/api";
import { ADMIN_TEXT, DASHBOARD_TEXT, NOT_FOUND_TEXT } from "../common/texts";
import { startBerth, type Berth } from "./support/berth";
import { launchBrowser } from "./support/browser";
import { confirmEmail, signInAs, signUp, waitFor } from "./support/pages";

const stamp = Date.now();
const password = "a long enough password";
const admin = { name: "Ada Operator", email: `ada.${stamp}@example.com`, password };
const member = { name: "Grace Member", email: `grace.${stamp}@example.com`, password };
const other = { name: "Linus Other", email: `linus.${stamp}@example.com`, password };

describe("the admin page", () => {
  let berth: Berth;
  let browser: Browser;
  let adminContext: BrowserContext;
  let memberContext: BrowserContext;
  let adminPage: Page;
  let memberPage: Page;

  beforeAll(async () => {
    [berth, browser] = await Promise.all([startBerth({ BERTH_ADMIN_EMAILS: admin.email }), launchBrowser()]);
    const viewport = { width: 1280, height: 900 };
    adminContext = await browser.newContext({ viewport });
    memberContext = await browser.newContext({ viewport });
    adminPage = await adminContext.newPage();
    memberPage = await memberContext.newPage();
    await signInAs(adminPage, berth, admin);
    await signInAs(memberPage, berth, member);
    // A third account that is only signed up and confirmed, to ban and delete.
    const scratch = await browser.newContext();
    const scratchPage = await scratch.newPage();
    await signUp(scratchPage, berth, other);
    await confirmEmail(scratchPage, berth, other.email);
    await scratch.close();
  });
  afterAll(async () => {
    await browser?.close();
    await berth?.stop();
  });

  const row = (page: Page, email: string): Locator => page.locator(`tr[data-user-email="${email}"]`);
  const menuOf = (page: Page, email: string) => row(page, email).getByRole("button", { name: ADMIN_TEXT.actionsFor(email) });
  const toast = (page: Page, title: string) => page.locator("[data-sonner-toast]").filter({ hasText: title }).first();
  const me = async (page: Page) => (await (await page.request.get(`${berth.url}/api/me`)).json()) as MeResponse;

  async function openAdmin(page: Page, query = ""): Promise<void> {
    await page.goto(`${berth.url}/dashboard/admin${query}`);
    await page.getByRole("heading", { name: ADMIN_TEXT.title, exact: true }).waitFor();
  }

  it("shows a member the not-found screen, and the API answers them 404", async () => {
    await memberPage.goto(`${berth.url}/dashboard/admin`);
    await memberPage.getByRole("heading", { name: NOT_FOUND_TEXT.title }).waitFor();
    await memberPage.getByRole("link", { name: NOT_FOUND_TEXT.backToDashboard }).waitFor();
    expect(await memberPage.getByRole("heading", { name: ADMIN_TEXT.title, exact: true }).count()).toBe(0);
    expect(await memberPage.getByRole("table").count()).toBe(0);
    expect((await memberPage.request.get(`${berth.url}/api/admin/users`)).status()).toBe(404);

    // The way back works, and the dashboard it leads to answers clicks again.
    await memberPage.getByRole("link", { name: NOT_FOUND_TEXT.backToDashboard }).click();
    await memberPage.waitForURL(`${berth.url}/dashboard`);
    await memberPage.getByRole("link", { name: DASHBOARD_TEXT.nav.sites }).first().click({ timeout: 5_000 });
    await memberPage.waitForURL(`${berth.url}/dashboard/sites`);
  });

  it("lists every account, newest first, with the admin marked", async () => {
    await openAdmin(adminPage);
    const emails = await adminPage.locator("tr[data-user-email]").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-user-email")));
    expect(emails).toEqual([other.email, member.email, admin.email]);
    await adminPage
      .getByText(ADMIN_TEXT.range(1, 3, 3))
      .first()
      .waitFor();
    expect(await row(adminPage, admin.email).getByText(ADMIN_TEXT.adminBadge, { exact: true }).count()).toBe(1);
    expect(await row(adminPage, member.email).getByText(ADMIN_TEXT.adminBadge, { exact: true }).count()).toBe(0);
    expect(await row(adminPage, member.email).getByTestId("plan-badge").textContent()).toBe("Free");
  });

  it("searches for the member and sets their plan to Pro, which their own account then shows", async () => {
    expect((await me(memberPage)).account.plan).toBe("free");
    await memberPage.goto(`${berth.url}/dashboard`);
    await memberPage.getByText("500 MB", { exact: true }).first().waitFor();

    await openAdmin(adminPage);
    await adminPage.getByLabel(ADMIN_TEXT.searchLabel).fill(`grace.${stamp}`);
    await adminPage.waitForURL((url) => url.searchParams.get("q") === `grace.${stamp}`);
    await row(adminPage, admin.email).waitFor({ state: "detached" });
    expect(await adminPage.locator("tr[data-user-email]").count()).toBe(1);

    await menuOf(adminPage, member.email).click();
    await adminPage.getByRole("menuitemradio", { name: /^Pro/ }).click();
    await toast(adminPage, ADMIN_TEXT.planChanged("Pro")).waitFor();
    expect(await row(adminPage, member.email).getByTestId("plan-badge").textContent()).toBe("Pro");

    // The search stays in the address, and the plan was saved.
    await adminPage.reload();
    await row(adminPage, member.email).waitFor();
    expect(await adminPage.locator("tr[data-user-email]").count()).toBe(1);
    expect(await row(adminPage, member.email).getByTestId("plan-badge").textContent()).toBe("Pro");

    expect((await me(memberPage)).account.plan).toBe("pro");
    await memberPage.reload();
    await memberPage.getByText("5 GB", { exact: true }).first().waitFor();
  });

  it("says so when nobody matches the search", async () => {
    await openAdmin(adminPage, "?q=nobody-like-this");
    await adminPage.getByText(ADMIN_TEXT.noMatches).waitFor();
    await adminPage.getByRole("button", { name: ADMIN_TEXT.clearSearch }).first().click();
    await row(adminPage, admin.email).waitFor();
    expect(new URL(adminPage.url()).searchParams.has("q")).toBe(false);
  });

  it("offers no action on the admin's own account", async () => {
    await openAdmin(adminPage);
    await menuOf(adminPage, admin.email).click();
    await adminPage.getByText(ADMIN_TEXT.selfActions).waitFor();
    for (const name of [/^Pro/, /^Free/]) expect(await adminPage.getByRole("menuitemradio", { name }).getAttribute("aria-disabled")).toBe("true");
    for (const name of [ADMIN_TEXT.ban, ADMIN_TEXT.removeAdmin, ADMIN_TEXT.sendReset, ADMIN_TEXT.deleteUser])
      expect(await adminPage.getByRole("menuitem", { name: new RegExp(`^${name}`) }).getAttribute("aria-disabled")).toBe("true");
    await adminPage.keyboard.press("Escape");
  });

  it("bans a user after a confirmation that explains it, and unbans them", async () => {
    await openAdmin(adminPage);
    await menuOf(adminPage, other.email).click();
    await adminPage.getByRole("menuitem", { name: ADMIN_TEXT.ban }).click();
    const dialog = adminPage.getByRole("alertdialog");
    await dialog.getByText(ADMIN_TEXT.banBody).waitFor();
    await dialog.getByRole("button", { name: ADMIN_TEXT.banConfirm }).click();
    await toast(adminPage, ADMIN_TEXT.bannedToast).waitFor();
    await row(adminPage, other.email).getByText(ADMIN_TEXT.banned, { exact: true }).waitFor();

    // The ban is on the server: the user cannot sign in.
    const signIn = await fetch(`http://127.0.0.1:${berth.port}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: berth.url },
      body: JSON.stringify({ email: other.email, password }),
    });
    expect(signIn.status).toBe(403);
    expect(((await signIn.json()) as { message?: string }).message).toBe(ACCOUNT_TEXT.suspended);

    await adminPage.reload();
    await row(adminPage, other.email).getByText(ADMIN_TEXT.banned, { exact: true }).waitFor();
    await menuOf(adminPage, other.email).click();
    await adminPage.getByRole("menuitem", { name: ADMIN_TEXT.unban }).click();
    await toast(adminPage, ADMIN_TEXT.unbannedToast).waitFor();
    await row(adminPage, other.email).getByText(ADMIN_TEXT.active, { exact: true }).waitFor();
  });

  it("sends a user a password-reset e-mail", async () => {
    await openAdmin(adminPage);
    const before = berth.outbox.messagesTo(other.email).filter((m) => /Reset your/.test(m.subject)).length;
    await menuOf(adminPage, other.email).click();
    await adminPage.getByRole("menuitem", { name: ADMIN_TEXT.sendReset }).click();
    await toast(adminPage, ADMIN_TEXT.resetSent).waitFor();
    await waitFor(() => {
      const after = berth.outbox.messagesTo(other.email).filter((m) => /Reset your/.test(m.subject)).length;
      if (after !== before + 1) throw new Error(`expected ${before + 1} reset mails, found ${after}`);
    });
  });

  it("deletes a user only once their address is typed", async () => {
    await openAdmin(adminPage);
    await menuOf(adminPage, other.email).click();
    await adminPage.getByRole("menuitem", { name: new RegExp(`^${ADMIN_TEXT.deleteUser}`) }).click();
    const dialog = adminPage.getByRole("alertdialog");
    await dialog.getByText(ADMIN_TEXT.deleteBody).waitFor();
    const confirm = dialog.getByRole("button", { name: ADMIN_TEXT.deleteConfirm });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel(ADMIN_TEXT.deleteConfirmLabel(other.email)).fill(member.email);
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel(ADMIN_TEXT.deleteConfirmLabel(other.email)).fill(other.email);
    await confirm.click();
    await toast(adminPage, ADMIN_TEXT.deleted).waitFor();
    await row(adminPage, other.email).waitFor({ state: "detached" });

    await adminPage.reload();
    await row(adminPage, member.email).waitFor();
    expect(await row(adminPage, other.email).count()).toBe(0);
    await adminPage
      .getByText(ADMIN_TEXT.range(1, 2, 2))
      .first()
      .waitFor();
  });
});
