// The admin page's user list and `berth admin list-users`: search, newest first, 50 a page.
import { ADMIN_PAGE_SIZE, type AdminUsersResponse } from "../../../common/admin";
import type { AppContext } from "../../context";
import { countAdminUsers, listAdminUsers } from "../../db/repositories/adminUsers";
import { presentAdminUser } from "./present";

export async function listUsers(
  ctx: Pick<AppContext, "db" | "env">,
  options: { search?: string | undefined; page?: number | undefined },
): Promise<AdminUsersResponse> {
  const search = options.search?.trim() || undefined;
  const page = Math.max(1, Math.floor(options.page ?? 1));
  const [rows, total] = await Promise.all([
    listAdminUsers(ctx.db, { search, limit: ADMIN_PAGE_SIZE, offset: (page - 1) * ADMIN_PAGE_SIZE }),
    countAdminUsers(ctx.db, search),
  ]);
  return { users: rows.map((row) => presentAdminUser(row, ctx.env)), total, page, pageSize: ADMIN_PAGE_SIZE };
}
