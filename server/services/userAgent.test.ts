import { describe, expect, it } from "vitest";
import { parseUserAgent } from "./userAgent";

describe("parseUserAgent", () => {
  it.each([
    [
      "Chrome on macOS",
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
      { device: "Desktop", browser: "Chrome 131", os: "macOS" },
    ],
    [
      "Safari on macOS",
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4.1 Safari/605.1.15",
      { device: "Desktop", browser: "Safari 17", os: "macOS" },
    ],
    [
      "Edge on Windows",
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.70",
      { device: "Desktop", browser: "Edge 131", os: "Windows" },
    ],
    [
      "Firefox on Linux",
      "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
      { device: "Desktop", browser: "Firefox 133", os: "Linux" },
    ],
    [
      "Opera on Windows",
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 OPR/115.0.0.0",
      { device: "Desktop", browser: "Opera 115", os: "Windows" },
    ],
    [
      "Safari on an iPhone",
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
      { device: "Mobile", browser: "Safari 17", os: "iOS" },
    ],
    [
      "Chrome on an iPhone",
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1",
      { device: "Mobile", browser: "Chrome 131", os: "iOS" },
    ],
    [
      "Safari on an iPad",
      "Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1",
      { device: "Tablet", browser: "Safari 16", os: "iPadOS" },
    ],
    [
      "Chrome on an Android phone",
      "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
      { device: "Mobile", browser: "Chrome 131", os: "Android" },
    ],
    [
      "Samsung Internet on an Android tablet",
      "Mozilla/5.0 (Linux; Android 13; SM-X700) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/23.0 Chrome/115.0.0.0 Safari/537.36",
      { device: "Tablet", browser: "Samsung Internet 23", os: "Android" },
    ],
    [
      "Firefox on an Android phone",
      "Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0",
      { device: "Mobile", browser: "Firefox 133", os: "Android" },
    ],
    [
      "Chrome on ChromeOS",
      "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
      { device: "Desktop", browser: "Chrome 131", os: "ChromeOS" },
    ],
    [
      "headless Chromium",
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36",
      { device: "Desktop", browser: "Chrome 156", os: "Linux" },
    ],
    ["curl", "curl/8.5.0", { device: "Desktop", browser: "Unknown browser", os: null }],
    ["no header", null, { device: "Desktop", browser: "Unknown browser", os: null }],
  ])("%s", (_name, userAgent, expected) => {
    expect(parseUserAgent(userAgent)).toEqual(expected);
  });
});
