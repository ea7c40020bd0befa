// Screenshots for a person to look at: set BERTH_SCREENSHOTS to a directory and the browser tests
// that call shoot() keep full-page PNGs there, at desktop and phone widths.
import path from "node:path";
import type { Page } from "playwright-core";

export const shotsDir = process.env.BERTH_SCREENSHOTS;

export async function shoot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  if (!shotsDir) return;
  const viewport = page.viewportSize() ?? { width: 1280, height: 800 };
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 800 });
    // Let layout and transitions settle at the new width. From the top, or the sticky sidebar and
    // header are drawn where the page was scrolled to.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(250);
    await page.screenshot({
      path: path.join(shotsDir, `${name}-${width}.png`),
      fullPage: options.fullPage ?? true,
      // Toasts from the steps before would cover the page.
      style: "[data-sonner-toaster] { display: none !important; }",
    });
  }
  await page.setViewportSize(viewport);
}
