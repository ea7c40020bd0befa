// Sets a user's plan, bans or unbans them, promotes or demotes them: PATCH /api/admin/users/:id
// and the CLI's set-plan, ban, unban, promote and demote.
import type { AdminUser, AdminUserUpdate } from "../../../common/admin";
import { findPlan } from "../../../common/plans";
import type { AppContext } from "../../context";
import { deleteSessionsOfUser, subdomainsOfUser, updateAdminFields } from "../../db/repositories/adminUsers";
import { AppError } from "../../errors";
import { noticePlanChanged } from "../notifications/accountNotices";
import { requireUserById } from "./findUser";
import { assertAllowed, type ActorId } from "./rules";

export async function updateUser(
  ctx: Pick<AppContext, "db" | "plans" | "env" | "events" | "log">,
  actorId: ActorId,
  userId: string,
  update: AdminUserUpdate,
  now = new Date(),
): Promise<AdminUser> {
  // Any of the server's plans (BERTH_PLANS_FILE's ids), and no other: the CLI and the API alike.
  if (update.plan !== undefined && !findPlan(ctx.plans, update.plan)) {
    const ids = ctx.plans.plans.map((plan) => plan.id).join(", ");
    throw new AppError("unknown_plan", 400, `There is no plan "${update.plan}" on this server. Its plans are: ${ids}.`);
  }
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
  if (update.plan !== undefined && update.plan !== target.plan) {
    // The change is made; a notice that cannot be written is logged, not the operator's error.
    await noticePlanChanged(ctx, userId, update.plan).catch((error: unknown) =>
      ctx.log.error({ err: error, userId }, "could not add the plan-changed notice"),
    );
  }
  ctx.log.info({ userId, email: target.email, update, by: actorId ?? "operator" }, "admin updated a user");
  return requireUserById(ctx, userId);
}
