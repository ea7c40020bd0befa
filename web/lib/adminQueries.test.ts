import { describe, expect, it } from "vitest";
import type { AdminUser } from "../../common/admin";
import { adminUsersPath, applyUpdate } from "./adminQueries";

const user: AdminUser = {
  id: "u1",
  email: "ada@example.com",
  name: "Ada",
  emailVerified: true,
  plan: "free",
  isAdmin: false,
  adminByConfig: false,
  bannedAt: null,
  storageBytes: 0,
  siteCount: 0,
  createdAt: "2026-11-01T00:00:00.000Z",
};

describe("adminUsersPath", () => {
  it("leaves out the defaults", () => {
    expect(adminUsersPath("", 1)).toBe("/api/admin/users");
  });
  it("encodes the search and the page", () => {
    expect(adminUsersPath("a&b c", 3)).toBe("/api/admin/users?search=a%26b+c&page=3");
  });
});

describe("applyUpdate", () => {
  it("changes only what the update names", () => {
    expect(applyUpdate(user, { plan: "pro" })).toEqual({
      ...user,
      plan: "pro",
    });
    expect(applyUpdate(user, { isAdmin: true })).toEqual({
      ...user,
      isAdmin: true,
    });
  });
  it("bans with a time and unbans to null, keeping an existing ban's time", () => {
    expect(applyUpdate(user, { banned: true }).bannedAt).toEqual(expect.any(String));
    const banned = { ...user, bannedAt: "2026-11-02T00:00:00.000Z" };
    expect(applyUpdate(banned, { banned: true }).bannedAt).toBe(banned.bannedAt);
    expect(applyUpdate(banned, { banned: false }).bannedAt).toBeNull();
  });
});
