// Sets a user's plan, bans or unbans them, promotes or demotes them: PATCH /api/admin/users/:id
// and the CLI's set-plan, ban, unban, promote and demote.
import type { AdminUser, AdminUserUpdate } from "../../../common/admin";
import type { AppContext } from "../../context";
import { deleteSessionsOfUser, subdomainsOfUser, updateAdminFields } from "../../db/repositories/adminUsers";
import { AppError } from "../../errors";
import { requireUserById } from "./findUser";
import { assertAllowed, type ActorId } from "./rules";

export async function updateUser(
  ctx: Pick<AppContext, "db" | "env" | "events" | "log">,
  actorId: ActorId,
  userId: string,
  update: AdminUserUpdate,
  now = new Date(),
): Promise<AdminUser> {
  const target = await requireUserById(ctx, userId);
  // Every rule is checked before anything changes, so a refused request changes nothing.
  if (update.banned === true) assertAllowed("ban", actorId, target);
  if (update.isAdmin === false) assertAllowed("demote", actorId, target);

  await ctx.db.transaction(async (tx) => {
    if (!(await updateAdminFields(tx, userId, update, now))) throw new AppError("user_not_found", 404, "User not found");
    // A ban signs the user out everywhere at once; sign-in is refused while it lasts (auth.ts).
    if (update.banned === true) await deleteSessionsOfUser(tx, userId);
  });

  if (update.banned !== undefined) {
    // The edge drops its cached answers for every host of the user's sites; its lookup leaves out
    // sites of banned owners, so they stop (or start again) being served with the next request.
    for (const site of await subdomainsOfUser(ctx.db, userId)) {
      ctx.events.emit("site", { userId, siteId: site.id, subdomain: site.subdomain });
    }
  }
  ctx.log.info({ userId, email: target.email, update, by: actorId ?? "operator" }, "admin updated a user");
  return requireUserById(ctx, userId);
}
