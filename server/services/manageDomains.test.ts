// Names a user may not claim as a custom domain, with production-like settings.
import { describe, expect, it } from "vitest";
import { isBerthHostname } from "./manageDomains";

describe("isBerthHostname", () => {
  const env = { appUrl: "https://app.berth.example", sitesDomain: "berthsites.example" };

  it.each([
    ["app.berth.example", true],
    ["berthsites.example", true],
    ["qwert.berthsites.example", true],
    ["qwert--v2.berthsites.example", true],
    ["a.b.berthsites.example", true],
    ["berth.example", false],
    ["www.berth.example", false],
    ["evilberthsites.example", false],
    ["www.shop.example", false],
  ])("%s → %s", (hostname, reserved) => {
    expect(isBerthHostname(env, hostname)).toBe(reserved);
  });
});
