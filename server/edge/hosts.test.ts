import { describe, expect, it } from "vitest";
import { createHostRouter } from "./hosts";
import { EdgeMemory, MIN_BUDGET_BYTES } from "./memory/budget";
import { nameOf } from "../test/hostNames";

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
    const router = createHostRouter({
      appUrl: "http://localhost:8080",
      sitesDomain: "localhost",
      customDomains: { target: (host) => active.get(host) },
    });
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
    const router = createHostRouter({
      appUrl: "http://localhost:8080",
      sitesDomain: "localhost",
      customDomains: { target: (host) => active.get(host) },
    });
    expect(router.stableLabel("Abcde.localhost:8080")).toBe("abcde");
    expect(router.stableLabel("www.shop.test")).toBeUndefined();
    expect(router.stableLabel("localhost:8080")).toBeUndefined();
    expect(router.siteLabel("www.shop.test")).toBe("qwert");
  });

  it("routes no host that no DNS name can be, and remembers none", () => {
    const memory = new EdgeMemory(MIN_BUDGET_BYTES);
    const router = createHostRouter({ appUrl: "http://localhost:8080", sitesDomain: "localhost", memory });
    for (const host of [nameOf(254), `${"a".repeat(64)}.localhost`, `${nameOf(253)}.:123456`]) {
      expect(router.siteLabel(host)).toBeUndefined();
      expect(router.stableLabel(host)).toBeUndefined();
    }
    expect(memory.part("hostValues").used).toBe(0);
    expect(router.siteLabel(nameOf(253))).toBe(nameOf(253).slice(0, -".localhost".length));
  });

  it("remembers Host values within its part of the edge's budget, the oldest going first", () => {
    const memory = new EdgeMemory(MIN_BUDGET_BYTES);
    const part = memory.part("hostValues");
    const router = createHostRouter({ appUrl: "http://localhost:8080", sitesDomain: "localhost", memory });
    const label = (i: number) => `s${i}-${"x".repeat(50)}.${"y".repeat(60)}.${"z".repeat(60)}`;
    for (let i = 0; i < 5000; i++) expect(router.stableLabel(`${label(i)}.localhost:8080`)).toBe(label(i));
    expect(part.used).toBeGreaterThan(part.cap / 2);
    expect(part.used).toBeLessThanOrEqual(part.cap);
    // Still right for one it let go of.
    expect(router.siteLabel(`${label(0)}.localhost:8080`)).toBe(label(0));
  });
});
