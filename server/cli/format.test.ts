import { describe, expect, it } from "vitest";
import type { AdminUser } from "../../common/admin";
import { formatUserList } from "./format";

const user = (overrides: Partial<AdminUser>): AdminUser => ({
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
  createdAt: "2026-01-01T00:00:00.000Z",
  ...overrides,
});

describe("the CLI's user list", () => {
  it("lines up a table with sizes in base 1024 and the status and admin columns", () => {
    const text = formatUserList({
      users: [
        user({ email: "root@example.com", name: "Root", isAdmin: true, adminByConfig: true }),
        user({
          email: "grace@example.com",
          name: "Grace\u001b[31m",
          plan: "pro",
          storageBytes: 1536,
          siteCount: 2,
          bannedAt: "2026-02-01T00:00:00.000Z",
        }),
        user({ name: "Ada", isAdmin: true, storageBytes: 5 * 1024 * 1024 }),
      ],
      total: 3,
      page: 1,
      pageSize: 50,
    });
    expect(text).toBe(
      [
        "EMAIL              NAME        PLAN  STORAGE  SITES  STATUS  ADMIN",
        "root@example.com   Root        free  0 Bytes  0      active  yes (config)",
        "grace@example.com  Grace?[31m  pro   1.5 KB   2      banned  -",
        "ada@example.com    Ada         free  5 MB     0      active  yes",
        "",
        "3 users.",
      ].join("\n"),
    );
  });

  it("says which page it shows and how to get the next", () => {
    const page = { users: [user({})], total: 120, page: 2, pageSize: 50 };
    expect(formatUserList(page)).toMatch(/\n\nUsers 51–51 of 120 \(page 2 of 3\)\. Next: --page 3$/);
    expect(formatUserList({ ...page, page: 3 })).toMatch(/\(page 3 of 3\)\.$/);
    expect(formatUserList({ users: [], total: 0, page: 1, pageSize: 50 })).toBe("No users found.");
    expect(formatUserList({ users: [], total: 60, page: 4, pageSize: 50 })).toBe("Page 4 is past the end: 60 users fill 2 pages.");
  });
});
