// The operator's API (/api/admin/*, admins only; everyone else gets 404) and the `berth admin`
// commands, which call the same services.
import { z } from "zod";
import { pageQueryField } from "./api";

export const AdminUser = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  emailVerified: z.boolean(),
  plan: z.string().describe("The id of one of the server's plans (GET /api/config)."),
  isAdmin: z.boolean().describe("Admin by BERTH_ADMIN_EMAILS or by promotion."),
  adminByConfig: z.boolean().describe("Admin because the e-mail is in BERTH_ADMIN_EMAILS: cannot be demoted or banned here."),
  bannedAt: z.string().nullable(),
  storageBytes: z.number().int(),
  siteCount: z.number().int(),
  createdAt: z.string(),
});
export type AdminUser = z.infer<typeof AdminUser>;

export const ADMIN_PAGE_SIZE = 50;

/** GET /api/admin/users?search=&page=. */
export const AdminUsersQuery = z.object({
  search: z.string().max(200, "Search for at most 200 characters").optional().describe("Part of a name or e-mail address."),
  page: pageQueryField(`From 1; ${ADMIN_PAGE_SIZE} users a page, newest first.`),
});
export type AdminUsersQuery = z.infer<typeof AdminUsersQuery>;

export const AdminUsersResponse = z.object({
  users: z.array(AdminUser),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type AdminUsersResponse = z.infer<typeof AdminUsersResponse>;

/**
 * GET /api/admin/storage: what the blob store holds beside what users' quotas count. The two
 * differ both ways: a file two users uploaded is stored once and counted for each, and the
 * compressed copies the server makes of site files are stored but counted in no quota.
 */
export const AdminStorageResponse = z.object({
  diskBytes: z.number().int().describe("Every stored blob once: the disk (or bucket) Berth's files take."),
  variantBytes: z.number().int().describe("Of diskBytes, the brotli and gzip copies of site files the server makes to serve them faster."),
  quotaBytes: z.number().int().describe("The sum of every user's storage as their quota counts it."),
});
export type AdminStorageResponse = z.infer<typeof AdminStorageResponse>;

/** PATCH /api/admin/users/:id: any subset. */
export const AdminUserUpdate = z
  .object({
    plan: z.string().min(1).max(64).describe("The id of one of the server's plans (GET /api/config)."),
    banned: z.boolean(),
    isAdmin: z.boolean(),
  })
  .partial()
  .refine((value) => Object.keys(value).length > 0, "Nothing to change");
export type AdminUserUpdate = z.infer<typeof AdminUserUpdate>;
