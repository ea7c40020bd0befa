// Finds the user an admin action is about: by id (the API) or by e-mail (the CLI).
import type { AdminUser } from "../../../common/admin";
import type { AppContext } from "../../context";
import { getAdminUserById, getUserIdByEmail } from "../../db/repositories/adminUsers";
import { AppError } from "../../errors";
import { presentAdminUser } from "./present";

type Ctx = Pick<AppContext, "db" | "env">;

export async function requireUserById(ctx: Ctx, userId: string): Promise<AdminUser> {
  const row = await getAdminUserById(ctx.db, userId);
  if (!row) throw new AppError("user_not_found", 404, "User not found");
  return presentAdminUser(row, ctx.env);
}

export async function requireUserByEmail(ctx: Ctx, email: string): Promise<AdminUser> {
  const id = await getUserIdByEmail(ctx.db, email);
  if (!id) throw new AppError("user_not_found", 404, `No user has the e-mail address ${email}`);
  return requireUserById(ctx, id);
}
