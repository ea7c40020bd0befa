import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { greetingFor } from "../common/texts";
import { startBerth, type Berth } from "./support/berth";
import { launchBrowser } from "./support/browser";
import { confirmEmail, signIn, signUp, waitFor } from "./support/pages";

describe("accounts in the browser", () => {
  let berth: Berth;
  let browser: Browser;
  beforeAll(async () => {
    [berth, browser] = await Promise.all([startBerth(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await berth?.stop();
  });

  it("signs up, confirms by e-mail, signs in, keeps the session on reload and signs out", async () => {
    const page = await browser.newPage();
    const user = { name: "Ada Lovelace", email: "ada@example.com", password: "analytical engine" };
    await signUp(page, berth, user);

    // Not confirmed yet: sign-in is refused.
    await signIn(page, user.email, user.password);
    await page
      .getByRole("alert")
      .filter({ hasText: /verif|confirm/i })
      .first()
      .waitFor();
    expect(new URL(page.url()).pathname).toBe("/auth/login");

    await confirmEmail(page, berth, user.email);
    await page.getByText("Your e-mail address is confirmed. You can sign in now.").waitFor();
    await signIn(page, user.email, user.password, { rememberMe: true });
    await page.waitForURL(`${berth.url}/dashboard`);

    const greeting = page.getByTestId("greeting");
    await expect.poll(() => greeting.textContent()).toMatch(/^Good (morning|afternoon|evening), Ada$/);
    const expected = greetingFor(new Date(), "Ada Lovelace");
    expect([expected, greetingFor(new Date(Date.now() - 60_000), "Ada")]).toContain(await greeting.textContent());

    const cookies = await page.context().cookies();
    const session = cookies.find((c) => c.name === "berth.session_token");
    expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax", domain: "localhost" });

    await page.reload();
    await greeting.waitFor();
    expect(new URL(page.url()).pathname).toBe("/dashboard");

    await page.getByRole("button", { name: "Logout" }).first().click();
    await page.waitForURL(`${berth.url}/auth/login`);
    await page.goto(`${berth.url}/dashboard`);
    await page.waitForURL(`${berth.url}/auth/login`);
    await page.close();
  });

  it("returns to a guarded URL visited while signed out, after signing in", async () => {
    const page = await browser.newPage();
    const user = { name: "Grace Hopper", email: "grace@example.com", password: "compiler cobol" };
    await signUp(page, berth, user);
    await confirmEmail(page, berth, user.email);

    await page.goto(`${berth.url}/dashboard?from=bookmark#top`);
    await page.waitForURL((url) => url.pathname === "/auth/login");
    expect(new URL(page.url()).searchParams.get("redirect")).toBe("/dashboard?from=bookmark#top");

    await signIn(page, user.email, user.password);
    await page.waitForURL(`${berth.url}/dashboard?from=bookmark#top`);
    await page.getByTestId("greeting").waitFor();
    await page.close();
  });

  it("resets a forgotten password through the e-mailed link", async () => {
    const page = await browser.newPage();
    const user = { name: "Katherine Johnson", email: "katherine@example.com", password: "orbital mechanics" };
    await signUp(page, berth, user);
    await confirmEmail(page, berth, user.email);

    await page.goto(`${berth.url}/auth/forgot-password`);
    await page.getByLabel("Email").fill(user.email);
    await page.getByRole("button", { name: "Send Reset Link" }).click();
    await page.getByText("Check your email for the password reset link").first().waitFor();
    await page.getByText(user.email).first().waitFor();

    const link = await waitFor(() => berth.outbox.lastLink(user.email, /Reset your Berth password/));
    await page.goto(link);
    await page.waitForURL((url) => url.pathname === "/auth/update-password");
    await page.getByLabel("New Password").fill("re-entry trajectory");
    await page.getByLabel("Confirm Password").fill("re-entry trajectory");
    await page.getByRole("button", { name: "Update Password" }).click();
    await page.waitForURL((url) => url.pathname === "/auth/login");

    await signIn(page, user.email, "re-entry trajectory");
    await page.waitForURL(`${berth.url}/dashboard`);

    // The same link a second time is refused with a clear message.
    await page.goto(link);
    await page.getByText("This password reset link is invalid or has expired.").waitFor();
    await page.close();
  });
});
