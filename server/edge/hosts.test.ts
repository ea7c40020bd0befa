import { describe, expect, it } from "vitest";
import { createHostRouter, normalizeHost } from "./hosts";

describe("host routing", () => {
  const local = createHostRouter({ appUrl: "http://localhost:8080", sitesDomain: "localhost" });
  const prod = createHostRouter({ appUrl: "https://app.berth.example", sitesDomain: "berth.example" });

  it.each([
    ["abcde.localhost:8080", "abcde"],
    ["ABCDE.LOCALHOST:8080", "abcde"],
    ["abcde.localhost.", "abcde"],
    ["abcde.localhost", "abcde"],
    ["localhost:8080", undefined],
    ["localhost", undefined],
    [".localhost", undefined],
    ["evil-localhost", undefined],
    ["127.0.0.1:8080", undefined],
    ["[::1]:8080", undefined],
    [undefined, undefined],
    ["", undefined],
  ])("on a laptop, %s is site %s", (host, label) => {
    expect(local.siteLabel(host)).toBe(label);
  });

  it("never treats the dashboard's own host as a site, even under the sites domain", () => {
    expect(prod.siteLabel("app.berth.example")).toBeUndefined();
    expect(prod.siteLabel("qwert.berth.example")).toBe("qwert");
    expect(prod.siteLabel("berth.example")).toBeUndefined();
  });

  it("sends an active custom domain to its site's subdomain, and every other host to the dashboard", () => {
    const active = new Map([["www.shop.test", { subdomain: "qwert" }]]);
    const router = createHostRouter({ appUrl: "http://localhost:8080", sitesDomain: "localhost", customDomains: { target: (host) => active.get(host) } });
    expect(router.siteLabel("www.shop.test")).toBe("qwert");
    expect(router.siteLabel("WWW.Shop.Test.:8080")).toBe("qwert");
    expect(router.siteLabel("shop.test")).toBeUndefined();
    expect(router.siteLabel("abcde.localhost:8080")).toBe("abcde");
    for (const host of ["localhost:8080", "127.0.0.1:8080", "[::1]:8080", undefined]) expect(router.siteLabel(host)).toBeUndefined();
    active.delete("www.shop.test");
    expect(router.siteLabel("www.shop.test")).toBeUndefined();
  });

  it("gives a stable label for sites-domain hosts only, never for a custom domain", () => {
    const active = new Map([["www.shop.test", { subdomain: "qwert" }]]);
    const router = createHostRouter({ appUrl: "http://localhost:8080", sitesDomain: "localhost", customDomains: { target: (host) => active.get(host) } });
    expect(router.stableLabel("Abcde.localhost:8080")).toBe("abcde");
    expect(router.stableLabel("www.shop.test")).toBeUndefined();
    expect(router.stableLabel("localhost:8080")).toBeUndefined();
    expect(router.siteLabel("www.shop.test")).toBe("qwert");
  });

  it("normalizes ports, case and trailing dots", () => {
    expect(normalizeHost("Foo.Example:443")).toBe("foo.example");
    expect(normalizeHost("[::1]:80")).toBe("[::1]");
    expect(normalizeHost(undefined)).toBeUndefined();
  });
});
