// Names the browser, operating system and kind of device behind a User-Agent header: for the
// account's list of active sessions (server) and a share link's access log (dashboard). Deliberately
// small: the families people recognise, in the order that tells them apart (Edge, Opera and
// Samsung Internet all also say "Chrome").

export interface UserAgentInfo {
  device: "Desktop" | "Mobile" | "Tablet";
  /** e.g. "Chrome 131", "Firefox 133", or "Unknown browser". */
  browser: string;
  /** e.g. "macOS", "Windows", "Android", or null when unknown. */
  os: string | null;
}

const BROWSERS: [name: string, pattern: RegExp][] = [
  ["Edge", /\bEdg(?:e|A|iOS)?\/(\d+)/],
  ["Opera", /\b(?:OPR|OPiOS)\/(\d+)/],
  ["Samsung Internet", /\bSamsungBrowser\/(\d+)/],
  ["Firefox", /\b(?:Firefox|FxiOS)\/(\d+)/],
  ["Chrome", /\b(?:Chrome|CriOS|Chromium|HeadlessChrome)\/(\d+)/],
  ["Safari", /\bVersion\/(\d+)[\d.]*(?: Mobile\/\S+)? Safari\//],
];

const SYSTEMS: [name: string, pattern: RegExp][] = [
  ["Windows", /\bWindows (?:NT|Phone)\b/],
  ["iPadOS", /\biPad\b/],
  ["iOS", /\b(?:iPhone|iPod)\b/],
  ["Android", /\bAndroid\b/],
  ["ChromeOS", /\bCrOS\b/],
  ["macOS", /\bMac OS X\b|\bMacintosh\b/],
  ["Linux", /\bLinux\b/],
];

export function parseUserAgent(userAgent: string | null | undefined): UserAgentInfo {
  const ua = userAgent ?? "";
  let browser = "Unknown browser";
  for (const [name, pattern] of BROWSERS) {
    const match = pattern.exec(ua);
    if (match) {
      browser = `${name} ${match[1]!}`;
      break;
    }
  }
  const os = SYSTEMS.find(([, pattern]) => pattern.test(ua))?.[0] ?? null;
  const device =
    /\biPad\b|\bTablet\b/.test(ua) || (os === "Android" && !/\bMobile\b/.test(ua))
      ? "Tablet"
      : /\bMobi|\biPhone\b|\biPod\b/.test(ua)
        ? "Mobile"
        : "Desktop";
  return { device, browser, os };
}
