// The operator's view of one user, as the API, the admin page and the CLI show it.
import type { AdminUser } from "../../../common/admin";
import type { AdminUserRow } from "../../db/repositories/adminUsers";
import type { Env } from "../../env";

export function presentAdminUser(row: AdminUserRow, env: Pick<Env, "adminEmails" | "plans">): AdminUser {
  const adminByConfig = env.adminEmails.has(row.email.toLowerCase());
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    emailVerified: row.emailVerified,
    plan: row.plan ?? env.plans.defaultPlan,
    isAdmin: adminByConfig || row.isAdmin,
    adminByConfig,
    bannedAt: row.bannedAt?.toISOString() ?? null,
    storageBytes: row.storageBytes,
    siteCount: row.siteCount,
    createdAt: row.createdAt.toISOString(),
  };
}
