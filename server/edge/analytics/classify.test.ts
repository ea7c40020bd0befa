import { describe, expect, it } from "vitest";
import { hostName, isBot, isPageView, pathOf, referrerHost, visitorAddress } from "./classify";

describe("what a request counts as", () => {
  it.each([
    ["Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36", false],
    [
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
      false,
    ],
    ["Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0", false],
    ["Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", true],
    ["Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0)", true],
    ["facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)", true],
    ["Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)", true],
    ["curl/8.5.0", true],
    ["python-requests/2.32.3", true],
    ["Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36", true],
    ["", true],
    [undefined, true],
  ])("%s is a bot: %s", (ua, bot) => {
    expect(isBot(ua)).toBe(bot);
  });

  it("counts successful HTML answers and revalidated pages as page views", () => {
    expect(isPageView(200, "text/html; charset=utf-8", "/")).toBe(true);
    expect(isPageView(200, "text/css; charset=utf-8", "/style.css")).toBe(false);
    expect(isPageView(200, undefined, "/")).toBe(false);
    expect(isPageView(404, "text/html; charset=utf-8", "/missing")).toBe(false);
    expect(isPageView(301, undefined, "/about.html")).toBe(false);
    expect(isPageView(304, undefined, "/about")).toBe(true);
    expect(isPageView(304, undefined, "/docs/")).toBe(true);
    expect(isPageView(304, undefined, "/index.HTML")).toBe(true);
    expect(isPageView(304, undefined, "/app.js")).toBe(false);
    expect(isPageView(206, "text/html", "/")).toBe(false);
  });

  it("keeps the path without its query, cut to 512 characters", () => {
    expect(pathOf("/a/b?x=1&y=2")).toBe("/a/b");
    expect(pathOf("/")).toBe("/");
    expect(pathOf(`/${"x".repeat(2000)}`)).toHaveLength(512);
  });

  it("names the referring host, not the site's own pages or odd schemes", () => {
    expect(referrerHost("https://www.Google.com/search?q=x", "abcde.localhost:8080")).toBe("www.google.com");
    expect(referrerHost("http://user:pw@news.example:8443/a#b", "abcde.localhost")).toBe("news.example");
    expect(referrerHost("http://abcde.localhost:8080/about", "abcde.localhost:8080")).toBeNull();
    expect(referrerHost("android-app://com.example/", "abcde.localhost")).toBeNull();
    expect(referrerHost("not a url", "abcde.localhost")).toBeNull();
    expect(referrerHost(undefined, "abcde.localhost")).toBeNull();
    expect(referrerHost(`https://${"a".repeat(300)}.example/`, "abcde.localhost")).toBeNull();
    expect(referrerHost("https://[2001:db8::1]:8443/x", "abcde.localhost")).toBe("[2001:db8::1]");
  });

  it("strips the port from a host", () => {
    expect(hostName("Example.COM:8080")).toBe("example.com");
    expect(hostName("[::1]:8080")).toBe("[::1]");
    expect(hostName("site.localhost")).toBe("site.localhost");
  });

  it("trusts X-Forwarded-For's last entry only behind a trusted proxy", () => {
    expect(visitorAddress("10.0.0.1", "1.1.1.1, 203.0.113.9", true)).toBe("203.0.113.9");
    expect(visitorAddress("10.0.0.1", "1.1.1.1, 203.0.113.9", false)).toBe("10.0.0.1");
    expect(visitorAddress("10.0.0.1", undefined, true)).toBe("10.0.0.1");
    expect(visitorAddress(undefined, undefined, false)).toBe("unknown");
  });
});
