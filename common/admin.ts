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
