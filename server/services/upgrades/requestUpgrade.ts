// 'Request Pro' (or any plan listed above the user's own): when the operator has no billing page
// of their own (BERTH_UPGRADE_URL unset), a user asks for a plan, every admin is told, and one of
// them answers (answerUpgradeRequest). A request names its plan; a client that names none asks for
// the catalogue's upgradeTo, as every request did before requests named one. One request is open
// per user at a time; the partial unique index decides, so two clicks at once make one request.
import { findPlan, offeredPlans, upgradeFor, type Plan, type PlanCatalog } from "../../../common/plans";
import type { MyUpgradeRequestResponse, UpgradeRequest, UpgradeRequestBody } from "../../../common/support";
import type { AppContext } from "../../context";
import { getLatestUpgradeRequestOfUser, insertUpgradeRequest } from "../../db/repositories/upgradeRequests";
import { AppError } from "../../errors";
import { notifyAdmins } from "../admin/notifyAdmins";
import { planOf } from "../planPolicy";
import { presentUpgradeRequest } from "./present";

type Ctx = Pick<AppContext, "db" | "plans" | "env" | "events" | "log">;

export async function myUpgradeRequest(ctx: Ctx, userId: string): Promise<MyUpgradeRequestResponse> {
  const row = await getLatestUpgradeRequestOfUser(ctx.db, userId);
  return { request: row ? presentUpgradeRequest(ctx.plans, row) : null };
}

/** The plan an account on `current` may ask for by `wanted` (upgradeTo when undefined), or why not. */
function targetOf(plans: PlanCatalog, current: Plan, wanted: string | undefined): Plan {
  if (wanted !== undefined && wanted !== plans.upgradeTo) {
    const plan = findPlan(plans, wanted);
    if (!plan) {
      const ids = plans.plans.map((p) => p.id).join(", ");
      throw new AppError("unknown_plan", 400, `This server has no plan "${wanted}". Its plans: ${ids}.`);
    }
    if (!offeredPlans(plans, current.id).includes(plan)) {
      throw new AppError(
        "plan_not_offered",
        400,
        plan.id === current.id
          ? `Your account is on ${plan.name} already.`
          : `${plan.name} is not offered to your account: it is on ${current.name}, and only a plan listed above it can be asked for.`,
      );
    }
    return plan;
  }
  // upgradeTo, by name or by default: the rule 'Upgrade' has always followed.
  const target = upgradeFor(plans, current.id);
  if (!target) {
    const why =
      current.id === plans.upgradeTo
        ? `Your account is on ${current.name} already.`
        : `Your account is on ${current.name}, and this server offers no plan above it to ask for.`;
    throw new AppError("already_pro", 409, why);
  }
  return target;
}

export async function requestUpgrade(
  ctx: Ctx,
  user: { id: string; email: string; name: string },
  body: UpgradeRequestBody = {},
): Promise<UpgradeRequest> {
  if (ctx.env.upgradeUrl) {
    throw new AppError("upgrade_elsewhere", 409, "Upgrades on this server go through the operator's billing page, not a request.");
  }
  const current = await planOf(ctx, user.id);
  const target = targetOf(ctx.plans, current, body.plan);
  const created = await insertUpgradeRequest(ctx.db, user.id, target.id);
  if (!created) {
    const open = await getLatestUpgradeRequestOfUser(ctx.db, user.id);
    const asked = (open?.status === "pending" && findPlan(ctx.plans, open.plan ?? ctx.plans.upgradeTo ?? "")) || target;
    throw new AppError(
      "upgrade_request_open",
      409,
      `You have already asked for ${asked.name}. An admin will answer that request; you'll get a notification.`,
    );
  }
  await notifyAdmins(ctx, {
    kind: "upgrade_requested",
    title: `${user.name || user.email} asks for ${target.name}`,
    body: `${user.email} would like to move to the ${target.name} plan. Approve or decline it on the admin page.`,
    link: "/dashboard/admin",
  });
  ctx.log.info({ userId: user.id, requestId: created.id, plan: target.id }, "user requested an upgrade");
  return presentUpgradeRequest(ctx.plans, created);
}
