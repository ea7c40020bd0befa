// File history in the browser: a file's versions in the Files tab, restoring one of them, comparing
// two versions with a line diff, deleted files, and restoring the site as it was at a moment.
// Set BERTH_SCREENSHOTS to a directory to keep screenshots of each.
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HISTORY_TEXT } from "../common/history";
import { SITE_TEXT } from "../common/sites";
import { setPlan, startBerth, type Berth } from "./support/berth";
import { launchBrowser } from "./support/browser";
import { createSiteInWizard, signInNewUser } from "./support/pages";
import { shoot } from "./support/shots";

const FIRST = "<h1 id=v>first</h1>\n<p>unchanged line</p>\n";
const SECOND = "<h1 id=v>second</h1>\n<p>unchanged line</p>\n";

describe("file history in the browser", () => {
  let berth: Berth;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let user: { email: string };
  let siteUrl: string;
  let sitePage: string;

  async function upload(name: string, content: string) {
    await page.getByRole("button", { name: SITE_TEXT.upload, exact: true }).first().click();
    const dialog = page.getByRole("dialog");
    await dialog.locator('input[type="file"]').setInputFiles({ name, mimeType: "text/html", buffer: Buffer.from(content) });
    await dialog.getByRole("button", { name: SITE_TEXT.upload, exact: true }).click();
    await dialog.waitFor({ state: "hidden" });
    await page.getByText(name).first().waitFor();
  }

  async function visit(): Promise<string> {
    const visitor = await context.newPage();
    await visitor.goto(siteUrl);
    const text = (await visitor.locator("#v").textContent()) ?? "";
    await visitor.close();
    return text;
  }

  const historyMenu = async (item: string) => {
    await page.getByRole("button", { name: HISTORY_TEXT.title }).click();
    await page.getByRole("menuitem", { name: item }).click();
  };

  beforeAll(async () => {
    [berth, browser] = await Promise.all([startBerth(), launchBrowser()]);
    context = await browser.newContext();
    page = await context.newPage();
    user = await signInNewUser(page, berth);
    const id = await createSiteInWizard(page, berth, "History site", { name: "index.html", mimeType: "text/html", buffer: Buffer.from(FIRST) });
    sitePage = `${berth.url}/dashboard/sites/${id}`;
    siteUrl = (await page
      .getByRole("link", { name: /\.localhost/ })
      .first()
      .getAttribute("href"))!;
    await upload("index.html", SECOND);
    await upload("notes.html", "<p>notes</p>");
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await berth?.stop();
  });

  it("shows a file's history and restores one version of it", async () => {
    expect(await visit()).toBe("second");
    await page.getByRole("button", { name: "Actions for index.html" }).first().click();
    await page.getByRole("menuitem", { name: "History" }).click();
    const panel = page.getByRole("dialog", { name: HISTORY_TEXT.title });
    const versions = panel.getByRole("list", { name: "Versions of index.html" }).getByRole("listitem");
    await expect.poll(() => versions.count()).toBe(2);
    expect(await versions.nth(0).getByRole("heading").textContent()).toBe("Version 2");
    await versions.nth(0).getByText("Current").waitFor();
    await shoot(page, "history-panel");

    await versions.nth(1).getByRole("button", { name: HISTORY_TEXT.restore }).click();
    const confirm = page.getByRole("alertdialog");
    await confirm.getByText(HISTORY_TEXT.restoreTitle("index.html", 1)).waitFor();
    await confirm.getByRole("button", { name: "Restore" }).click();
    await page.getByText(HISTORY_TEXT.restoredBody("Index.html", 1)).first().waitFor();
    await expect.poll(visit).toBe("first");
    // The panel follows: the restore is the new current version.
    await expect.poll(() => versions.count()).toBe(3);
    expect(await versions.nth(0).getByRole("heading").textContent()).toBe("Version 4");
    await page.keyboard.press("Escape");
    await panel.waitFor({ state: "detached" });
  });

  it("compares two versions, with the changed lines of a text file", async () => {
    await historyMenu(HISTORY_TEXT.compareTitle);
    const dialog = page.getByRole("dialog", { name: HISTORY_TEXT.compareTitle });
    // Newest first: 4 (live), 3, 2, 1. To: the live version by default.
    await dialog.getByLabel("From").selectOption({ index: 2 });
    await dialog.getByText("Version 2 → version 4: 1 added · 1 changed · 0 removed").waitFor();
    await dialog.getByRole("button", { name: "Show changes" }).click();
    const diff = dialog.locator("[data-diff='index.html']");
    await diff.waitFor();
    expect(await diff.locator("tr[data-op='remove'] td:last-child").allTextContents()).toEqual(["<h1 id=v>second</h1>"]);
    expect(await diff.locator("tr[data-op='add'] td:last-child").allTextContents()).toEqual(["<h1 id=v>first</h1>"]);
    await shoot(page, "history-compare");
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
  });

  it("shows a deleted file and restores it", async () => {
    await page.getByRole("button", { name: "Actions for notes.html" }).first().click();
    await page.getByRole("menuitem", { name: "Delete" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
    await page.getByRole("alertdialog").waitFor({ state: "detached" });

    await historyMenu(HISTORY_TEXT.showDeleted);
    const deleted = page.getByRole("list", { name: HISTORY_TEXT.deletedTitle });
    await deleted.getByText("notes.html").waitFor();
    await shoot(page, "history-deleted-files");
    await deleted.getByRole("button", { name: "Restore notes.html" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Restore" }).click();
    await page.getByText(HISTORY_TEXT.noDeleted).waitFor();
    await page.getByRole("button", { name: "Actions for notes.html" }).first().waitFor();
  });

  it("restores the site as it was at a moment, on Pro", async () => {
    // The field takes whole seconds, so the moment typed is `before` cut to its second: wait out
    // the second in which version 6 went live, or the moment typed may come before it.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const before = new Date();
    await historyMenu(HISTORY_TEXT.restoreAt);
    let dialog = page.getByRole("dialog", { name: HISTORY_TEXT.restoreAtTitle });
    await dialog.getByText("Point-in-time restore").waitFor();
    await shoot(page, "history-restore-at-free");
    await page.keyboard.press("Escape");

    expect(await setPlan(berth, user.email, "pro")).toBe(0);
    await page.goto(sitePage);
    await upload("index.html", "<h1 id=v>third</h1>");
    expect(await visit()).toBe("third");
    await historyMenu(HISTORY_TEXT.restoreAt);
    dialog = page.getByRole("dialog", { name: HISTORY_TEXT.restoreAtTitle });
    await dialog.getByLabel("Date and time").fill(localInput(before));
    await dialog.getByText(/^Version 6 was live then/).waitFor();
    await shoot(page, "history-restore-at");
    await dialog.getByRole("button", { name: HISTORY_TEXT.restoreAtConfirm }).click();
    await page.getByText(HISTORY_TEXT.restoredAt(6)).first().waitFor();
    await expect.poll(visit).toBe("first");
  });
});

/** A time as a datetime-local field takes it, to the second, in the browser's (and this process's) zone. */
function localInput(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  const date = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
  return `${date}T${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`;
}
