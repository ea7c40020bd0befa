import { describe, expect, it } from "vitest";
import { ADMIN_NAV, MAIN_NAV, mainNavFor } from "./nav";

describe("mainNavFor", () => {
  it("lists the admin page only for admins", () => {
    expect(mainNavFor(false)).toEqual(MAIN_NAV);
    expect(mainNavFor(true)).toEqual([...MAIN_NAV, ADMIN_NAV]);
    expect(ADMIN_NAV.to).toBe("/dashboard/admin");
  });
});
