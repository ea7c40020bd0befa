// Account settings in the browser: the profile and its picture, a password change that signs out
// another browser, and two-factor sign-in with codes computed here from the secret on the page.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCOUNT_TEXT, AVATAR_MAX_BYTES } from "../common/account";
import { AUTH_TEXT, SETTINGS_TEXT as T, TWO_FACTOR_SCREEN_TEXT } from "../common/texts";
import { totp } from "../server/test/totp";
import { startBerth, type Berth } from "./support/berth";
import { launchBrowser } from "./support/browser";
import { signIn, signInNewUser } from "./support/pages";
import { solidPng } from "./support/png";

describe("account settings in the browser", () => {
  let berth: Berth;
  let browser: Browser;
  beforeAll(async () => {
    [berth, browser] = await Promise.all([startBerth(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await berth?.stop();
  });

  async function openSettings(page: Page, tab?: "security" | "notifications") {
    await page.goto(`${berth.url}/dashboard/settings${tab ? `?tab=${tab}` : ""}`);
    await page.getByRole("heading", { name: T.title, level: 1 }).waitFor();
  }

  it("edits the profile and its picture; the header follows at once and after a reload", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const user = await signInNewUser(page, berth, "Site Owner");
    await openSettings(page);

    // Account Information: the real address, the plan and the sign-up date.
    const info = page.getByRole("definition");
    await info.filter({ hasText: user.email }).waitFor();
    await info.filter({ hasText: "Free" }).waitFor();
    await info.filter({ hasText: String(new Date().getFullYear()) }).waitFor();

    // The form shows the name given at sign-up; a bad website is refused inline.
    const fullName = page.getByLabel(T.profile.fullName);
    await expect.poll(() => fullName.inputValue()).toBe("Site Owner");
    await expect.poll(() => page.getByLabel(T.profile.company).getAttribute("placeholder")).toBe(T.profile.companyPlaceholder);
    await fullName.fill("Marie Curie");
    await page.getByLabel(T.profile.company).fill("Radium Institute");
    await page.getByLabel(T.profile.website).fill("curie dot example");
    await page.getByRole("button", { name: T.profile.save }).click();
    await page.getByText("Please enter a URL starting with http:// or https://").waitFor();
    expect(await page.getByTestId("greeting").textContent()).toMatch(/, Site$/);

    await page.getByLabel(T.profile.website).fill("https://curie.example");
    await page.getByRole("button", { name: T.profile.save }).click();
    await page.getByText(T.profile.updated, { exact: true }).waitFor();
    await page.getByText(T.profile.updatedDescription).waitFor();
    await expect.poll(() => page.getByTestId("greeting").textContent()).toMatch(/^Good (morning|afternoon|evening), Marie$/);
    expect(await page.getByTestId("avatar-initial").textContent()).toBe("M");

    // The browser refuses a wrong type or an oversized image before sending anything.
    const avatarPuts: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "PUT" && new URL(request.url()).pathname === "/api/me/avatar") avatarPuts.push(request.url());
    });
    const picker = page.getByTestId("avatar-file");
    await picker.setInputFiles({ name: "anim.gif", mimeType: "image/gif", buffer: Buffer.from("GIF89a") });
    await page.getByRole("alert").filter({ hasText: T.avatar.wrongType }).waitFor();
    await picker.setInputFiles({ name: "huge.png", mimeType: "image/png", buffer: Buffer.alloc(AVATAR_MAX_BYTES + 1) });
    await page.getByRole("alert").filter({ hasText: "larger than 2 MB" }).waitFor();
    expect(avatarPuts).toEqual([]);

    // A file that only claims to be a PNG reaches the server, which refuses it; its words are shown.
    await picker.setInputFiles({ name: "fake.png", mimeType: "image/png", buffer: Buffer.from("<html>not an image</html>") });
    await page.getByRole("alert").filter({ hasText: ACCOUNT_TEXT.avatarUnsupported }).waitFor();
    expect(avatarPuts).toHaveLength(1);
    expect(await page.getByTestId("avatar-image").count()).toBe(0);

    // A real PNG: shown in the header without a reload.
    await picker.setInputFiles({ name: "me.png", mimeType: "image/png", buffer: solidPng(48, 48, [200, 40, 60]) });
    await page.getByText(T.avatar.uploaded).waitFor();
    const headerImage = page.getByTestId("avatar-image");
    await headerImage.waitFor();
    expect(await headerImage.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(48);
    await page.getByTestId("settings-avatar-image").waitFor();

    // A reload keeps the name, the form's values and the picture.
    await page.reload();
    await expect.poll(() => page.getByTestId("greeting").textContent()).toMatch(/, Marie$/);
    await page.getByTestId("avatar-image").waitFor();
    await expect.poll(() => page.getByLabel(T.profile.company).inputValue()).toBe("Radium Institute");
    expect(await page.getByLabel(T.profile.website).inputValue()).toBe("https://curie.example");

    // Remove: the initial comes back, and stays after a reload.
    await page.getByRole("button", { name: T.avatar.remove }).click();
    await page.getByText(T.avatar.removed).waitFor();
    await page.getByTestId("avatar-image").waitFor({ state: "detached" });
    expect(await page.getByTestId("avatar-initial").textContent()).toBe("M");
    await page.reload();
    await page.getByTestId("avatar-initial").waitFor();
    expect(await page.getByTestId("avatar-image").count()).toBe(0);
    await context.close();
  });

  it("changes the password: another browser is signed out, this one stays, and the new password works", async () => {
    const contextA = await browser.newContext();
    const contextB = await browser.newContext();
    const a = await contextA.newPage();
    const b = await contextB.newPage();
    const user = await signInNewUser(a, berth, "Two Browsers");
    await b.goto(`${berth.url}/auth/login`);
    await signIn(b, user.email, user.password);
    await b.waitForURL(`${berth.url}/dashboard`);

    await openSettings(a, "security");
    const rows = a.getByTestId("session-row");
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.filter({ hasText: T.sessions.thisDevice }).count()).toBe(1);
    await a.getByText(T.password.description).waitFor();

    // A wrong current password is refused, inline.
    await a.getByLabel(T.password.current).fill("not my password");
    await a.getByLabel(T.password.next, { exact: true }).fill("a brand new password");
    await a.getByLabel(T.password.confirm).fill("a brand new password");
    await a.getByRole("button", { name: T.password.submit }).click();
    await a.getByText(T.password.wrongCurrent).waitFor();

    await a.getByLabel(T.password.current).fill(user.password);
    await a.getByRole("button", { name: T.password.submit }).click();
    await a.getByText(T.password.changed, { exact: true }).waitFor();
    await a.getByText(T.password.changedDescription).waitFor();
    await expect.poll(() => rows.count()).toBe(1);

    // B's next page load finds its session gone.
    await b.goto(`${berth.url}/dashboard/sites`);
    await b.waitForURL((url) => url.pathname === "/auth/login");

    // A is still signed in, after a reload too.
    await a.reload();
    await a.getByTestId("greeting").waitFor();
    expect(new URL(a.url()).pathname).toBe("/dashboard/settings");

    // Only the new password opens the account now.
    await signIn(b, user.email, user.password);
    await b.getByRole("alert").first().waitFor();
    expect(new URL(b.url()).pathname).toBe("/auth/login");
    await signIn(b, user.email, "a brand new password");
    await b.waitForURL((url) => url.pathname === "/dashboard/sites");

    // And a single session can be revoked from A, after a confirmation.
    await a.reload();
    await expect.poll(() => rows.count()).toBe(2);
    await rows
      .filter({ hasNotText: T.sessions.thisDevice })
      .getByRole("button", { name: /Revoke/ })
      .click();
    await a.getByRole("alertdialog").getByRole("button", { name: T.sessions.revoke }).click();
    await a.getByText(T.sessions.revoked).waitFor();
    await expect.poll(() => rows.count()).toBe(1);
    await b.goto(`${berth.url}/dashboard`);
    await b.waitForURL((url) => url.pathname === "/auth/login");

    await contextA.close();
    await contextB.close();
  });

  it("sets up two-factor sign-in from the page's key, then signs in with a code and with a backup code", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const user = await signInNewUser(page, berth, "Second Factor");
    await openSettings(page, "security");
    const status = page.getByTestId("two-factor-status");
    await expect.poll(() => status.textContent()).toBe(T.twoFactor.off);

    await page.getByRole("button", { name: T.twoFactor.enable, exact: true }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel(T.twoFactor.password, { exact: true }).fill("wrong password");
    await dialog.getByRole("button", { name: T.twoFactor.continue }).click();
    await dialog.getByText(T.password.wrongCurrent).waitFor();
    await dialog.getByLabel(T.twoFactor.password, { exact: true }).fill(user.password);
    await dialog.getByRole("button", { name: T.twoFactor.continue }).click();

    await dialog.getByRole("img", { name: T.twoFactor.qrAlt }).waitFor();
    const secret = (await dialog.getByTestId("totp-secret").textContent())!.replace(/\s+/g, "");
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    await dialog.getByLabel(T.twoFactor.code).fill(totp(secret));

    const codes = dialog.getByTestId("backup-codes").getByRole("listitem");
    await expect.poll(() => codes.count()).toBe(10);
    const backupCode = (await codes.first().textContent())!.trim();
    await dialog.getByText(/won't be shown again/).waitFor();
    await dialog.getByRole("button", { name: T.twoFactor.done }).click();
    await expect.poll(() => status.textContent()).toBe(T.twoFactor.on);

    // Signing in now asks for a code, and then goes where sign-in would have gone.
    await page.getByRole("button", { name: "Logout" }).first().click();
    await page.waitForURL(`${berth.url}/auth/login`);
    await page.goto(`${berth.url}/dashboard/sites`);
    await page.waitForURL((url) => url.pathname === "/auth/login");
    await signIn(page, user.email, user.password);
    await page.waitForURL((url) => url.pathname === "/auth/two-factor");
    expect(new URL(page.url()).searchParams.get("redirect")).toBe("/dashboard/sites");

    const codeField = page.getByLabel(TWO_FACTOR_SCREEN_TEXT.code);
    expect(await codeField.evaluate((input) => input === document.activeElement)).toBe(true);
    // Pasted with a space, and wrong: refused with a message, still on this page.
    const wrong = totp(secret, { time: Date.now() + 10 * 60_000 });
    await codeField.fill(`${wrong.slice(0, 3)} ${wrong.slice(3)}`);
    await page.getByText(TWO_FACTOR_SCREEN_TEXT.invalidCode).waitFor();
    expect(new URL(page.url()).pathname).toBe("/auth/two-factor");

    await codeField.fill(totp(secret));
    await page.waitForURL((url) => url.pathname === "/dashboard/sites");
    await page.getByTestId("greeting").waitFor();
    await page.getByText(AUTH_TEXT.loginSuccess).first().waitFor();

    // A backup code works once in place of the app.
    await page.getByRole("button", { name: "Logout" }).first().click();
    await page.waitForURL(`${berth.url}/auth/login`);
    await signIn(page, user.email, user.password);
    await page.waitForURL((url) => url.pathname === "/auth/two-factor");
    await page.getByRole("button", { name: TWO_FACTOR_SCREEN_TEXT.useBackup }).click();
    await page.getByLabel(TWO_FACTOR_SCREEN_TEXT.backupCode).fill(backupCode);
    await page.getByRole("button", { name: TWO_FACTOR_SCREEN_TEXT.verify }).click();
    await page.waitForURL(`${berth.url}/dashboard`);
    await page.getByTestId("greeting").waitFor();
    await context.close();
  });
});
