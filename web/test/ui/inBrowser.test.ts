// The shared ui components in Chromium, without the rest of the app: each *.fixture.tsx beside
// this file renders them into a blank page (bundled with esbuild, React and all), and the tests
// click, type and drop files as a person would. No Tailwind here: the tests look at roles, names
// and behaviour, not at styles.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { build } from "esbuild";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "../../../e2e/support/browser";

let browser: Browser;
const bundles = new Map<string, Promise<string>>();

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

function bundle(fixture: string): Promise<string> {
  let code = bundles.get(fixture);
  if (!code) {
    code = build({
      entryPoints: [path.join(import.meta.dirname, `${fixture}.fixture.tsx`)],
      bundle: true,
      write: false,
      format: "esm",
      platform: "browser",
      target: "es2022",
      jsx: "automatic",
      define: { "process.env.NODE_ENV": '"development"' },
      logLevel: "silent",
    }).then((result) => result.outputFiles[0]!.text);
    bundles.set(fixture, code);
  }
  return code;
}

/**
 * A new page running the fixture, once it has rendered. An error thrown in the page fails the
 * test at its next `check()`.
 */
async function open(fixture: string): Promise<{ page: Page; check: () => void; calls: () => Promise<string[]> }> {
  const page = await browser.newPage();
  const errors: Error[] = [];
  page.on("pageerror", (error) => errors.push(error));
  await page.setContent('<!doctype html><html lang="en"><body><div id="root"></div></body></html>');
  await page.addScriptTag({ content: await bundle(fixture), type: "module" });
  await page.waitForFunction(() => document.documentElement.dataset.fixture === "ready");
  return {
    page,
    check() {
      const first = errors.shift();
      if (first) throw first;
    },
    calls: () => page.evaluate(() => JSON.parse(document.documentElement.dataset.calls ?? "[]") as string[]),
  };
}

/** Sends the fixture a test event (see mountFixture.tsx). */
function send(page: Page, name: string, detail?: unknown): Promise<void> {
  return page.evaluate(([n, d]) => void document.dispatchEvent(new CustomEvent(n as string, { detail: d })), [name, detail]);
}

describe("ConfirmDialog", () => {
  it("asks, runs the action with a spinner, cannot be dismissed meanwhile, and closes on success", async () => {
    const { page, check, calls } = await open("ConfirmDialog");
    const dialog = page.getByRole("alertdialog");
    await page.getByRole("button", { name: "Delete slowly" }).click();
    await dialog.getByRole("heading", { name: "Delete the thing?" }).waitFor();
    expect(await dialog.getByText("It goes for good.").isVisible()).toBe(true);

    const confirm = dialog.getByRole("button", { name: "Delete" });
    await confirm.click();
    await dialog.getByRole("status", { name: "Deleting" }).waitFor();
    expect(await confirm.isDisabled()).toBe(true);
    expect(await dialog.getByRole("button", { name: "Cancel" }).isDisabled()).toBe(true);
    await page.keyboard.press("Escape");
    expect(await dialog.isVisible()).toBe(true);
    expect(await calls()).toEqual(["slow"]);

    await send(page, "settle");
    await dialog.waitFor({ state: "detached" });
    // Focus goes back to the button that opened it.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Delete slowly");
    check();
  });

  it("stays open after a failure, says why in a toast, and can be tried again", async () => {
    const { page, check, calls } = await open("ConfirmDialog");
    const dialog = page.getByRole("alertdialog");
    await page.getByRole("button", { name: "Delete slowly" }).click();
    const confirm = dialog.getByRole("button", { name: "Delete" });
    await confirm.click();
    await send(page, "settle", "The disk is full");

    const toast = page.locator("[data-sonner-toast]");
    await toast.getByText("Failed to delete the thing").waitFor();
    expect(await toast.getByText("The disk is full").isVisible()).toBe(true);
    expect(await dialog.isVisible()).toBe(true);
    expect(await confirm.isEnabled()).toBe(true);

    await confirm.click();
    await send(page, "settle");
    await dialog.waitFor({ state: "detached" });
    expect(await calls()).toEqual(["slow", "slow"]);
    check();
  });

  it("closes at once after an action that returns nothing, and Cancel runs nothing", async () => {
    const { page, check, calls } = await open("ConfirmDialog");
    const dialog = page.getByRole("alertdialog");
    await page.getByRole("button", { name: "Ban quickly" }).click();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
    expect(await calls()).toEqual([]);

    await page.getByRole("button", { name: "Ban quickly" }).click();
    await dialog.getByRole("button", { name: "Ban" }).click();
    await dialog.waitFor({ state: "detached" });
    expect(await calls()).toEqual(["quick"]);
    check();
  });

  it("keeps the button disabled until its field allows it, and Enter in the field confirms", async () => {
    const { page, check, calls } = await open("ConfirmDialog");
    const dialog = page.getByRole("alertdialog");
    await page.getByRole("button", { name: "Delete by name" }).click();
    const confirm = dialog.getByRole("button", { name: "Delete ada" });
    const field = dialog.getByLabel("Name");
    expect(await confirm.isDisabled()).toBe(true);
    await field.fill("ad");
    await field.press("Enter");
    expect(await dialog.isVisible()).toBe(true);
    expect(await calls()).toEqual([]);

    await field.fill("ada");
    expect(await confirm.isEnabled()).toBe(true);
    await field.press("Enter");
    await dialog.waitFor({ state: "detached" });
    expect(await calls()).toEqual(["typed ada"]);
    check();
  });

  it("does not submit a form its trigger sits in", async () => {
    const { page, check, calls } = await open("ConfirmDialog");
    const dialog = page.getByRole("alertdialog");
    await page.getByRole("button", { name: "Remove password" }).click();
    await dialog.getByRole("button", { name: "Remove" }).click();
    await dialog.waitFor({ state: "detached" });
    expect(await calls()).toEqual(["inner"]);
    check();
  });
});

describe("LoadError", () => {
  it("says what failed and why, at once, and tries again once at a time", async () => {
    const { page, check, calls } = await open("LoadError");
    const panel = page.getByRole("alert").filter({ hasText: "Failed to load site details" });
    expect(await panel.getByRole("heading", { level: 1, name: "Failed to load site details" }).count()).toBe(1);
    expect(await panel.getByText("The database is not answering").isVisible()).toBe(true);
    expect(await panel.getByRole("link", { name: "Back to sites" }).count()).toBe(1);

    const retry = panel.getByRole("button", { name: "Try again" });
    await retry.click();
    expect(await retry.isDisabled()).toBe(true);
    await send(page, "settle");
    await page.waitForFunction(() => !document.querySelector("button[disabled]"));
    expect(await calls()).toEqual(["panel retry"]);
    check();
  });

  it("fits in a line of a card, and its button never submits a form around it", async () => {
    const { page, check, calls } = await open("LoadError");
    const line = page.getByRole("alert").filter({ hasText: "Could not load your sessions" });
    expect(await line.getByRole("heading").count()).toBe(0);
    await line.getByRole("button", { name: "Try again" }).click();
    expect(await calls()).toEqual(["inline retry"]);
    check();
  });
});

describe("DropZone", () => {
  /**
   * Fires `types` in turn at the zone in `section` (a ">" prefix: at its first child instead, as
   * when the pointer crosses it), all carrying the same files named `names`.
   */
  function drag(page: Page, section: string, names: string[], types: string[]) {
    return page.evaluate(
      ([label, files, events]) => {
        const zone = document.querySelector(`section[aria-label="${label as string}"] label`)!;
        const held = globalThis as unknown as { dragged?: DataTransfer };
        if (!held.dragged) {
          held.dragged = new DataTransfer();
          for (const name of files as string[]) held.dragged.items.add(new File(["<p>hi</p>"], name, { type: "text/html" }));
        }
        const types = events as string[];
        for (const type of types) {
          const target = type.startsWith(">") ? zone.firstElementChild! : zone;
          target.dispatchEvent(new DragEvent(type.replace(">", ""), { dataTransfer: held.dragged, bubbles: true, cancelable: true }));
        }
        if (types.some((type) => type.endsWith("drop"))) delete held.dragged;
      },
      [section, names, types],
    );
  }

  it("takes files dropped on it, saying so while they are over it", async () => {
    const { page, check, calls } = await open("DropZone");
    const zone = page.getByRole("region", { name: "Open" });
    // Entering a child fires enter on it before leave on the zone: still over the zone.
    await drag(page, "Open", ["a.html", "b.html"], ["dragenter", ">dragenter", "dragleave", ">dragover"]);
    await zone.getByText("Drop to upload").waitFor();
    await drag(page, "Open", [], [">drop"]);
    await zone.getByText("Upload a file").waitFor();
    expect(await calls()).toEqual(["a.html b.html"]);

    await drag(page, "Open", ["c.html"], ["dragenter"]);
    await zone.getByText("Drop to upload").waitFor();
    await drag(page, "Open", [], ["dragleave"]);
    await zone.getByText("Upload a file").waitFor();
    expect(await calls()).toEqual(["a.html b.html"]);
    check();
  });

  it("is a file input reached with Tab, described by its hint, that takes the same file twice", async () => {
    const { page, check, calls } = await open("DropZone");
    await page.keyboard.press("Tab");
    const input = page.getByRole("region", { name: "Open" }).locator('input[type="file"]');
    expect(await input.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await input.getAttribute("accept")).toBe(".html,.zip");
    const hint = await input.evaluate((element) => document.getElementById(element.getAttribute("aria-describedby")!)?.textContent);
    expect(hint).toBe("HTML or ZIP · up to 50 MB");

    const file = { name: "index.html", mimeType: "text/html", buffer: Buffer.from("<p>hi</p>") };
    await input.setInputFiles(file);
    await input.setInputFiles(file);
    expect(await calls()).toEqual(["index.html", "index.html"]);
    check();
  });

  it("opens the same input as a folder picker for Choose a folder, and as a file picker again after", async () => {
    const { page, check, calls } = await open("DropZone");
    const zone = page.getByRole("region", { name: "Folders" });
    // One file input per zone, whatever it picks: the page's tests and people's tools find one.
    expect(await zone.locator('input[type="file"]').count()).toBe(1);
    const dir = mkdtempSync(path.join(os.tmpdir(), "berth-dropzone-"));
    try {
      mkdirSync(path.join(dir, "site", "css"), { recursive: true });
      writeFileSync(path.join(dir, "site", "index.html"), "<h1>hi</h1>");
      writeFileSync(path.join(dir, "site", "css", "site.css"), "body{}");
      const [folderChooser] = await Promise.all([page.waitForEvent("filechooser"), zone.getByRole("button", { name: "Choose a folder" }).click()]);
      expect(await folderChooser.element().evaluate((input) => (input as HTMLInputElement).webkitdirectory)).toBe(true);
      await folderChooser.setFiles(path.join(dir, "site"));
      expect(await calls()).toEqual(["folder: site/css/site.css site/index.html"]);

      const [fileChooser] = await Promise.all([page.waitForEvent("filechooser"), zone.getByText("Upload a file or a folder").click()]);
      expect(await fileChooser.element().evaluate((input) => (input as HTMLInputElement).webkitdirectory)).toBe(false);
      await fileChooser.setFiles({ name: "page.html", mimeType: "text/html", buffer: Buffer.from("<p>x</p>") });
      expect(await calls()).toEqual(["folder: site/css/site.css site/index.html", "page.html"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // Files dropped without a folder among them still go as files.
    await drag(page, "Folders", ["a.html", "b.html"], ["dragenter", "dragover", "drop"]);
    expect((await calls()).at(-1)).toBe("a.html b.html");
    check();
  });

  it("takes nothing while disabled", async () => {
    const { page, check, calls } = await open("DropZone");
    await drag(page, "Closed", ["a.html"], ["dragenter", "dragover", "drop"]);
    expect(await page.getByRole("region", { name: "Closed" }).locator("input").isDisabled()).toBe(true);
    expect(await calls()).toEqual([]);
    check();
  });
});
