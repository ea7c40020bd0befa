// Help, support and upgrades in the browser: a member opens Help from the sidebar, searches the
// docs and writes to support; an admin finds the message, marks it handled and replies by mail;
// the member asks for Pro, the admin approves, and the member is on Pro. Without a contact
// address the admin hears of the message in their feed. The plans dialog's other action, the
// operator's billing page, is shown with that setting in the page's config.
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MeResponse, PublicConfigResponse } from "../common/api";
import { DASHBOARD_SHELL_TEXT, DASHBOARD_TEXT } from "../common/texts";
import { startBerth, type Berth } from "./support/berth";
import { launchBrowser } from "./support/browser";
import { signInAs, waitFor } from "./support/pages";
import { shoot } from "./support/shots";

const stamp = Date.now();
const password = "a long enough password";
const admin = { name: "Ada Operator", email: `ada.${stamp}@example.com`, password };
const member = { name: "Grace Member", email: `grace.${stamp}@example.com`, password };
const subject = "My domain is stuck";

describe("help, support and upgrades", () => {
  let berth: Berth;
  let browser: Browser;
  let adminContext: BrowserContext;
  let memberContext: BrowserContext;
  let adminPage: Page;
  let memberPage: Page;

  beforeAll(async () => {
    // No contact address: messages reach the admins' feed and the admin page.
    [berth, browser] = await Promise.all([startBerth({ BERTH_ADMIN_EMAILS: admin.email, BERTH_CONTACT_EMAIL: "" }), launchBrowser()]);
    const viewport = { width: 1280, height: 900 };
    adminContext = await browser.newContext({ viewport });
    memberContext = await browser.newContext({ viewport });
    adminPage = await adminContext.newPage();
    memberPage = await memberContext.newPage();
    await signInAs(adminPage, berth, admin);
    await signInAs(memberPage, berth, member);
  });
  afterAll(async () => {
    await browser?.close();
    await berth?.stop();
  });

  const toast = (page: Page, title: string) => page.locator("[data-sonner-toast]").filter({ hasText: title }).first();
  const me = async (page: Page) => (await (await page.request.get(`${berth.url}/api/me`)).json()) as MeResponse;

  it("opens Help from the sidebar, finds a docs section as it is typed and opens it with the keyboard", async () => {
    await memberPage.getByRole("link", { name: DASHBOARD_TEXT.nav.help }).first().click();
    await memberPage.waitForURL(`${berth.url}/dashboard/help`);
    await memberPage.getByRole("heading", { name: DASHBOARD_TEXT.nav.help, level: 1 }).waitFor();
    await memberPage.getByText(/^Berth \d+\.\d+\.\d+/).waitFor();

    const search = memberPage.getByRole("combobox", { name: "Search the docs" });
    await search.fill("custom 404");
    const results = memberPage.getByRole("listbox", { name: "Matching docs" });
    await results.getByRole("option").first().waitFor();
    expect(await results.getByRole("option").first().textContent()).toContain("Fallback pages and clean URLs");
    await shoot(memberPage, "help-search");

    await search.press("Enter");
    await memberPage.waitForURL(`${berth.url}/docs#redirects-and-headers`);
    await memberPage.getByRole("heading", { name: "Redirects and headers", level: 2 }).waitFor();
    await memberPage.goBack();
    await memberPage.getByRole("combobox", { name: "Search the docs" }).waitFor();
  });

  it("sends a support message from the account, which reaches the admins", async () => {
    expect(await memberPage.getByLabel("Email", { exact: true }).inputValue()).toBe(member.email);
    await memberPage.getByLabel("Subject", { exact: true }).fill(subject);
    await memberPage.getByLabel("Message", { exact: true }).fill("It has been checking DNS for an hour.");
    await memberPage.getByRole("button", { name: "Send to support" }).click();
    await memberPage.getByText("Message sent. We'll answer by e-mail.").waitFor();
    await shoot(memberPage, "help");

    const feed = await waitFor(async () => {
      const response = await adminPage.request.get(`${berth.url}/api/admin/messages`);
      const body = (await response.json()) as { messages: { subject: string }[]; unhandled: number };
      return body.messages.some((m) => m.subject === subject) ? body : undefined;
    });
    expect(feed?.unhandled).toBe(1);
  });

  it("lets the admin mark the message handled and reply to it by mail", async () => {
    await adminPage.goto(`${berth.url}/dashboard/admin`);
    await adminPage.getByRole("tab", { name: /Messages/ }).click();
    await adminPage.waitForURL(/tab=messages/);
    const card = adminPage.getByRole("listitem").filter({ has: adminPage.getByRole("heading", { name: subject }) });
    await card.waitFor();
    expect(await card.textContent()).toContain(member.email);
    expect(await card.textContent()).toContain("Support");

    await card.getByRole("button", { name: "Mark as handled" }).click();
    await toast(adminPage, "Marked as handled").waitFor();
    await card.getByRole("button", { name: "Mark as not handled" }).waitFor();

    await card.getByRole("button", { name: "Reply" }).click();
    const dialog = adminPage.getByRole("dialog");
    await dialog.getByLabel("Your reply").fill("Hi Grace,\n\nThe DNS check is done now. Your domain is live.");
    await dialog.getByRole("button", { name: "Send reply" }).click();
    await toast(adminPage, "Reply sent").waitFor();
    await card.getByText("The DNS check is done now. Your domain is live.").waitFor();
    const mail = await waitFor(() => berth.outbox.messagesTo(member.email).find((m) => m.subject === `Re: ${subject}`));
    expect(mail?.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(mail?.text).toContain("Your domain is live.");
    await shoot(adminPage, "admin-messages");
  });

  it("lets a member request Pro; the dialog then shows the request waiting instead of the button", async () => {
    await memberPage.goto(`${berth.url}/dashboard`);
    await memberPage.getByRole("button", { name: DASHBOARD_TEXT.upgrade("Pro") }).click();
    const dialog = memberPage.getByRole("dialog");
    const request = dialog.getByRole("button", { name: DASHBOARD_SHELL_TEXT.upgradeRequest("Pro") });
    await request.waitFor();
    await shoot(memberPage, "plans-request", { fullPage: false });
    await request.click();
    await dialog.getByText(DASHBOARD_SHELL_TEXT.upgradePending("Pro")).waitFor();
    expect(await request.count()).toBe(0);
    await shoot(memberPage, "plans-pending", { fullPage: false });

    // A second request is refused by the server too, clearly.
    const again = await memberPage.request.post(`${berth.url}/api/upgrade-request`, { data: {}, headers: { origin: berth.url } });
    expect(again.status()).toBe(409);
    expect(((await again.json()) as { error: { code: string } }).error.code).toBe("upgrade_request_open");
  });

  it("lets the admin approve it, and the member is on Pro", async () => {
    await adminPage.getByRole("tab", { name: /Upgrade requests/ }).click();
    await adminPage.getByRole("button", { name: `Approve ${member.email}'s request` }).click();
    await toast(adminPage, `${member.email} is on Pro now`).waitFor();
    await adminPage.getByText("No requests waiting").waitFor();
    expect((await me(memberPage)).account.plan).toBe("pro");

    await memberPage.reload();
    await memberPage.getByRole("button", { name: "Pro plan" }).click();
    const dialog = memberPage.getByRole("dialog");
    await dialog.getByText(DASHBOARD_SHELL_TEXT.upgradeBodyPro("Pro")).waitFor();
    expect(await dialog.getByRole("button", { name: DASHBOARD_SHELL_TEXT.upgradeRequest("Pro") }).count()).toBe(0);
  });

  it("links to the operator's billing page when there is one, with the address where {email} stands", async () => {
    // The setting as the page reads it: the rest of the config as the server sends it.
    await adminPage.route("**/api/config", async (route) => {
      const config = (await (await route.fetch()).json()) as PublicConfigResponse;
      await route.fulfill({ json: { ...config, upgradeUrl: "https://billing.example.com/berth?account={email}" } });
    });
    await adminPage.goto(`${berth.url}/dashboard`);
    await adminPage.getByRole("button", { name: DASHBOARD_TEXT.upgrade("Pro") }).click();
    const link = adminPage.getByRole("dialog").getByRole("link", { name: DASHBOARD_SHELL_TEXT.upgradeContinue });
    await link.waitFor();
    expect(await link.getAttribute("href")).toBe(`https://billing.example.com/berth?account=${encodeURIComponent(admin.email)}`);
    expect(
      await adminPage
        .getByRole("dialog")
        .getByRole("button", { name: DASHBOARD_SHELL_TEXT.upgradeRequest("Pro") })
        .count(),
    ).toBe(0);
    await shoot(adminPage, "plans-billing", { fullPage: false });
  });
});
