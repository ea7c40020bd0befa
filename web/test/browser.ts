// Tests of what components do in a real browser (focus, clicks, dialogs, drag and drop) without
// the whole app: a fixture file renders them into #root, esbuild bundles it with React, and
// headless Chromium runs it in a blank page. No Tailwind: the tests look at roles, names and
// behaviour, never at styles.
import { build } from "esbuild";
import type { Browser, Page } from "playwright-core";
import { launchBrowser } from "../../e2e/support/browser";

export { launchBrowser };

/** The fixture and everything it imports as one ES module. */
export async function bundleFixture(file: string): Promise<string> {
  const result = await build({
    entryPoints: [file],
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    target: "es2022",
    jsx: "automatic",
    define: { "process.env.NODE_ENV": '"development"' },
    logLevel: "silent",
  });
  const output = result.outputFiles[0];
  if (!output) throw new Error(`esbuild produced nothing for ${file}`);
  return output.text;
}

/**
 * A new page running the bundled fixture, once it has rendered. Errors thrown in the page fail
 * the test that caused them: they are collected and thrown at the next `check()`.
 */
export async function openFixture(browser: Browser, code: string): Promise<Page & { check(): void }> {
  const page = await browser.newPage();
  const errors: Error[] = [];
  page.on("pageerror", (error) => errors.push(error));
  await page.setContent('<!doctype html><html lang="en"><body><div id="root"></div></body></html>');
  await page.addScriptTag({ content: code, type: "module" });
  await page.waitForFunction(() => document.documentElement.dataset.fixture === "ready");
  return Object.assign(page, {
    check() {
      const first = errors.shift();
      if (first) throw first;
    },
  });
}
