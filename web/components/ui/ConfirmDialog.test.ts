// The one confirmation dialog, in Chromium: it waits for its action with a spinner and cannot be
// dismissed meanwhile, closes when the action succeeds, and stays open with a toast when it fails.
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleFixture, launchBrowser, openFixture } from "../../test/browser";

let browser: Browser;
let code: string;

beforeAll(async () => {
  [browser, code] = await Promise.all([
    launchBrowser(),
    bundleFixture(path.join(import.meta.dirname, "ConfirmDialog.fixture.tsx")),
  ]);
});
afterAll(() => browser?.close());

async function open() {
  const page = await openFixture(browser, code);
  const calls = () => page.evaluate(() => window.calls);
  return { page, calls, dialog: page.getByRole("alertdialog") };
}

describe("ConfirmDialog", () => {
  it("asks, runs the action with a spinner, cannot be dismissed meanwhile, and closes on success", async () => {
    const { page, calls, dialog } = await open();
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

    await page.evaluate(() => window.settle());
    await dialog.waitFor({ state: "detached" });
    // Focus goes back to the button that opened it.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Delete slowly");
    page.check();
  });

  it("stays open after a failure, says why in a toast, and can be tried again", async () => {
    const { page, calls, dialog } = await open();
    await page.getByRole("button", { name: "Delete slowly" }).click();
    const confirm = dialog.getByRole("button", { name: "Delete" });
    await confirm.click();
    await page.evaluate(() => window.settle("The disk is full"));

    const toast = page.locator("[data-sonner-toast]");
    await toast.getByText("Failed to delete the thing").waitFor();
    expect(await toast.getByText("The disk is full").isVisible()).toBe(true);
    expect(await dialog.isVisible()).toBe(true);
    expect(await confirm.isEnabled()).toBe(true);

    await confirm.click();
    await page.evaluate(() => window.settle());
    await dialog.waitFor({ state: "detached" });
    expect(await calls()).toEqual(["slow", "slow"]);
    page.check();
  });

  it("closes at once after an action that returns nothing, and Cancel runs nothing", async () => {
    const { page, calls, dialog } = await open();
    await page.getByRole("button", { name: "Ban quickly" }).click();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });
    expect(await calls()).toEqual([]);

    await page.getByRole("button", { name: "Ban quickly" }).click();
    await dialog.getByRole("button", { name: "Ban" }).click();
    await dialog.waitFor({ state: "detached" });
    expect(await calls()).toEqual(["quick"]);
    page.check();
  });

  it("keeps the button disabled until its field allows it, and Enter in the field confirms", async () => {
    const { page, calls, dialog } = await open();
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
    page.check();
  });

  it("does not submit a form its trigger sits in", async () => {
    const { page, calls, dialog } = await open();
    await page.getByRole("button", { name: "Remove password" }).click();
    await dialog.getByRole("button", { name: "Remove" }).click();
    await dialog.waitFor({ state: "detached" });
    expect(await calls()).toEqual(["inner"]);
    page.check();
  });
});
