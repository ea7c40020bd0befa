import { chromium, type Browser } from "playwright-core";

export interface BrowserOptions {
  /**
   * Chromium features to switch on (--enable-features), for a test that needs behaviour Chromium
   * ships disabled. This switch replaces the one Playwright passes, which only tunes screenshots
   * and Google sign-in requests.
   */
  features?: string[];
}

/** Debian's Chromium, headless, with the flags this closed network needs. */
export function launchBrowser(options: BrowserOptions = {}): Promise<Browser> {
  const features = options.features?.length ? [`--enable-features=${options.features.join(",")}`] : [];
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      ...features,
    ],
  });
}
