// The operator's API (/api/admin/*, admins only; everyone else gets 404) and the `berth admin`
// commands, which call the same services.
import { z } from "zod";

export interface AdminUser {
  id: string;
  email: string;
  name: string;
  emailVerified: boolean;
  plan: "free" | "pro";
  /** Admin by BERTH_ADMIN_EMAILS or by promotion. */
  isAdmin: boolean;
  /** Admin because the e-mail is in BERTH_ADMIN_EMAILS: cannot be demoted or banned here. */
  adminByConfig: boolean;
  bannedAt: string | null;
  storageBytes: number;
  siteCount: number;
  createdAt: string;
}

/** GET /api/admin/users?search=&page= (page from 1; 50 a page, newest first). */
export interface AdminUsersResponse {
  users: AdminUser[];
  total: number;
  page: number;
  pageSize: number;
}
export const ADMIN_PAGE_SIZE = 50;

/**
 * GET /api/admin/storage: what the blob store holds beside what users' quotas count. The two
 * differ both ways: a file two users uploaded is stored once and counted for each, and the
 * compressed copies the server makes of site files are stored but counted in no quota.
 */
export interface AdminStorageResponse {
  /** Every stored blob once: the disk (or bucket) Berth's files take. */
  diskBytes: number;
  /** Of diskBytes, the brotli and gzip copies of site files the server makes to serve them faster. */
  variantBytes: number;
  /** The sum of every user's storage as their quota counts it. */
  quotaBytes: number;
}

/** PATCH /api/admin/users/:id: any subset. */
export const AdminUserUpdate = z
  .object({
    plan: z.enum(["free", "pro"]),
    banned: z.boolean(),
    isAdmin: z.boolean(),
  })
  .partial()
  .refine((value) => Object.keys(value).length > 0, "Nothing to change");
export type AdminUserUpdate = z.infer<typeof AdminUserUpdate>;
