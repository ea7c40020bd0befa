// Browser steps shared by the tests, written the way a person uses the pages: by label and text.
import type { Locator, Page } from "playwright-core";
import type { Berth } from "./berth";

export async function signUp(page: Page, berth: Berth, user: { name: string; email: string; password: string }): Promise<void> {
  await page.goto(`${berth.url}/auth/signup`);
  await page.getByLabel("Full Name").fill(user.name);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password", { exact: true }).fill(user.password);
  await page.getByRole("checkbox", { name: /agree/i }).check();
  await page.getByRole("button", { name: "Create Account" }).click();
  await page.getByText("Please check your email to confirm your account.").first().waitFor();
  await page.waitForURL(`${berth.url}/auth/login`);
}

/** Opens the confirmation link from the outbox, as the user would from their mail. */
export async function confirmEmail(page: Page, berth: Berth, email: string): Promise<void> {
  const link = await waitFor(() => berth.outbox.lastLink(email, /Confirm your e-mail/));
  await page.goto(link);
  await page.waitForURL((url) => url.pathname === "/auth/login");
}

export async function signIn(page: Page, email: string, password: string, options: { rememberMe?: boolean } = {}): Promise<void> {
  // Right after a navigation the page may still be settling (the session check answering). On a
  // loaded machine a field filled before that has been seen empty at submit, so wait for quiet
  // and check the values before submitting, as a person would see them.
  await page.waitForLoadState("networkidle");
  const emailField = page.getByLabel("Email");
  const passwordField = page.getByLabel("Password", { exact: true });
  for (let attempt = 1; ; attempt++) {
    await emailField.fill(email);
    await passwordField.fill(password);
    if ((await emailField.inputValue()) === email && (await passwordField.inputValue()) === password) break;
    if (attempt === 3) throw new Error("the sign-in form did not keep the e-mail and password typed into it");
  }
  if (options.rememberMe) await page.getByRole("checkbox", { name: "Remember me" }).check();
  await page.getByRole("button", { name: "Sign In" }).click();
}

export async function waitFor<T>(read: () => T, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return read();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

let accounts = 0;

/** Signs up, confirms and signs in a new user in this page. */
export async function signInNewUser(page: Page, berth: Berth, name = "Site Owner"): Promise<{ email: string; password: string }> {
  accounts += 1;
  const user = { name, email: `owner${accounts}.${Date.now()}@example.com`, password: "a long enough password" };
  await signUp(page, berth, user);
  await confirmEmail(page, berth, user.email);
  await signIn(page, user.email, user.password);
  await page.waitForURL(`${berth.url}/dashboard`);
  return user;
}

/**
 * The create-site wizard up to its upload step: the name typed, and Next pressed once the
 * subdomain reserved on arrival is shown, as a person would.
 */
export async function openWizardUploadStep(page: Page, berth: Berth, name: string): Promise<void> {
  await page.goto(`${berth.url}/dashboard/sites/new`);
  await page.getByLabel("Site Name").fill(name);
  await page
    .getByText(/\.localhost/)
    .first()
    .waitFor();
  await page.getByRole("button", { name: "Next" }).click();
}

/** Runs the create-site wizard with one file, goes from its last step to the site page and waits for it. */
export async function createSiteInWizard(
  page: Page,
  berth: Berth,
  name: string,
  file: { name: string; mimeType: string; buffer: Buffer },
): Promise<string> {
  await openWizardUploadStep(page, berth, name);
  await page.locator('input[type="file"]').setInputFiles(file);
  await page.getByRole("button", { name: "Create Site" }).click();
  await page.getByRole("heading", { name: "Your site is live" }).waitFor({ timeout: 30_000 });
  await page.getByRole("link", { name: "Go to site" }).click();
  await page.waitForURL(/\/dashboard\/sites\/[0-9a-f-]{36}/, { timeout: 30_000 });
  return new URL(page.url()).pathname.split("/").pop()!;
}

/**
 * Signs up, confirms and signs in a user whose address the test chose in advance (an admin named
 * in BERTH_ADMIN_EMAILS, say).
 */
export async function signInAs(page: Page, berth: Berth, user: { name: string; email: string; password: string }): Promise<void> {
  await signUp(page, berth, user);
  await confirmEmail(page, berth, user.email);
  await signIn(page, user.email, user.password);
  await page.waitForURL(`${berth.url}/dashboard`);
}

/**
 * Drops a folder on `target` as a person drags one from their file manager: through Chromium's own
 * drag pipeline (CDP Input.dispatchDragEvent with the folder's path), so the page's drop handler
 * gets real FileSystemEntry objects (webkitGetAsEntry, readEntries), which a DataTransfer built in
 * the page cannot hold.
 */
export async function dropFolder(page: Page, target: Locator, folder: string): Promise<void> {
  const box = await target.boundingBox();
  if (!box) throw new Error("the drop target is not visible");
  const point = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  const data = { items: [], files: [folder], dragOperationsMask: 1 };
  const cdp = await page.context().newCDPSession(page);
  try {
    for (const type of ["dragEnter", "dragOver", "drop"] as const) await cdp.send("Input.dispatchDragEvent", { type, ...point, data });
  } finally {
    await cdp.detach();
  }
}
