import { describe, expect, it } from "vitest";
import { isAppRoute } from "../../../common/routes";
import { ADMIN_NAV, MAIN_NAV, mainNavFor } from "./nav";

describe("mainNavFor", () => {
  it("lists the admin page only for admins", () => {
    expect(mainNavFor(false)).toEqual(MAIN_NAV);
    expect(mainNavFor(true)).toEqual([...MAIN_NAV, ADMIN_NAV]);
    expect(ADMIN_NAV.to).toBe("/dashboard/admin");
  });
});

describe("MAIN_NAV", () => {
  it("leads to pages the dashboard has, Integrations among them", () => {
    expect(MAIN_NAV.map((item) => item.to)).toContain("/dashboard/integrations");
    expect(MAIN_NAV.filter((item) => !isAppRoute(item.to))).toEqual([]);
  });
});
