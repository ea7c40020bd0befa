// `berth login` end to end: the built CLI prints a code and a link, a person opens the link while
// signed out, signs in, lands on the approval page with the code, approves it, and the CLI, which
// has been polling, saves its token (owner-only) and works with it. A second run is denied.
// Set BERTH_SCREENSHOTS to a directory to keep screenshots of the approval page.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { root, startBerth, type Berth } from "./support/berth";
import { launchBrowser } from "./support/browser";
import { confirmEmail, signIn, signUp } from "./support/pages";
import { shoot } from "./support/shots";

const cliEntry = path.join(root, "cli/dist/berth.js");

interface LoginRun {
  child: ChildProcess;
  /** The code and link the CLI printed. */
  prompt: Promise<{ code: string; url: string }>;
  exited: Promise<{ code: number | null; stderr: string }>;
}

/** Starts `berth login` as a person would, with a config home of its own. */
function startLogin(berth: Berth, home: string): LoginRun {
  const child = spawn(process.execPath, [cliEntry, "login", "--server", berth.url], {
    env: { PATH: process.env.PATH ?? "", HOME: home, XDG_CONFIG_HOME: path.join(home, ".config") },
  });
  let stderr = "";
  let found: (value: { code: string; url: string }) => void;
  const prompt = new Promise<{ code: string; url: string }>((resolve) => (found = resolve));
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
    const match = /approve the code ([A-Z]{4}-[A-Z]{4}):\n {2}(\S+)\n/.exec(stderr);
    if (match) found({ code: match[1]!, url: match[2]! });
  });
  const exited = new Promise<{ code: number | null; stderr: string }>((resolve) => child.on("close", (code) => resolve({ code, stderr })));
  return { child, prompt, exited };
}

function runCli(home: string, ...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cliEntry, ...args], {
      env: { PATH: process.env.PATH ?? "", HOME: home, XDG_CONFIG_HOME: path.join(home, ".config") },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("berth login through the browser", () => {
  let berth: Berth;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const home = mkdtempSync(path.join(os.tmpdir(), "berth-cli-home-"));
  const user = { name: "Terminal User", email: `terminal.${Date.now()}@example.com`, password: "a long enough password" };
  const running: ChildProcess[] = [];

  beforeAll(async () => {
    [berth, browser] = await Promise.all([startBerth(), launchBrowser()]);
    context = await browser.newContext();
    page = await context.newPage();
    await signUp(page, berth, user);
    await confirmEmail(page, berth, user.email);
  });
  afterAll(async () => {
    for (const child of running) child.kill();
    await context?.close();
    await browser?.close();
    await berth?.stop();
    rmSync(home, { recursive: true, force: true });
  });

  it("prints a code, is approved in the dashboard after signing in, and saves its token owner-only", async () => {
    const login = startLogin(berth, home);
    running.push(login.child);
    const { code, url } = await login.prompt;
    expect(url).toBe(`${berth.url}/dashboard/cli?code=${code}`);

    // Signed out, the link goes through sign-in and comes back with its code.
    await page.goto(url);
    await page.waitForURL((current) => current.pathname === "/auth/login");
    await signIn(page, user.email, user.password);
    await page.waitForURL(`${berth.url}/dashboard/cli?code=${code}`);
    await page.getByRole("heading", { name: "Sign in to the berth CLI", level: 1 }).waitFor();
    await page.getByLabel(`Code ${code}`).waitFor();
    await page.getByText(os.hostname().slice(0, 47), { exact: true }).waitFor();
    await shoot(page, "cli-login-pending");

    await page.getByRole("button", { name: "Approve sign-in" }).click();
    await page.getByRole("heading", { name: "You're signed in" }).waitFor();
    await shoot(page, "cli-login-approved");

    const { code: exitCode, stderr } = await login.exited;
    expect(exitCode, stderr).toBe(0);
    expect(stderr).toContain(`Signed in to ${berth.url} as ${user.email}.`);
    const configFile = path.join(home, ".config", "berth", "config.json");
    expect(statSync(configFile).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(configFile)).mode & 0o777).toBe(0o700);
    const saved = JSON.parse(readFileSync(configFile, "utf8")) as { server: string; token: string; email: string };
    expect(saved).toMatchObject({ server: berth.url, email: user.email });
    expect(saved.token).toMatch(/^berth_[A-Za-z0-9_-]{43}$/);

    const who = await runCli(home, "whoami");
    expect(who.code, who.stderr).toBe(0);
    expect(who.stdout).toContain(`${user.email} on ${berth.url}`);

    // The token is listed on the Integrations page, where it can be revoked.
    await page.getByRole("link", { name: "See your API tokens" }).click();
    await page.getByRole("listitem", { name: `berth CLI on ${os.hostname().slice(0, 47)}`, exact: true }).waitFor();
  });

  it("a denied code ends the CLI with the reason, and leaves no token", async () => {
    const login = startLogin(berth, mkdtempSync(path.join(os.tmpdir(), "berth-cli-home-")));
    running.push(login.child);
    const { url } = await login.prompt;
    await page.goto(url);
    await page.getByRole("button", { name: "Deny" }).click();
    await page.getByRole("heading", { name: "Sign-in denied" }).waitFor();
    const { code, stderr } = await login.exited;
    expect(code).toBe(1);
    expect(stderr.trim().split("\n").at(-1)).toBe("berth login: This sign-in request was denied in the browser.");
  });

  it("a mistyped code on the page is refused with the server's reason, and can be typed again", async () => {
    await page.goto(`${berth.url}/dashboard/cli?code=BBBB-BBBB`);
    await page.getByText("No sign-in request has this code. Check the code your terminal shows.").waitFor();
    await page.getByLabel("Code from your terminal").fill("nope");
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByText("Enter the 8-letter code your terminal shows").waitFor();
  });
});
