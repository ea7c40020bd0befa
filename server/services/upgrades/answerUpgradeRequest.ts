// An admin approves or declines a pending request for a plan (the one the request names; the
// catalogue's upgradeTo, Pro by default, for requests made before they named one). Approving sets
// the plan through the admin's own set-plan (updateUser), so it is the same change, logged and
// announced the same way, as choosing that plan in the user's menu. The user is told the answer in
// their feed.
import {
  ADMIN_UPGRADE_PAGE_SIZE,
  type AdminUpgradeAnswer,
  type AdminUpgradeRequest,
  type AdminUpgradeRequestsQuery,
  type AdminUpgradeRequestsResponse,
} from "../../../common/support";
import type { AppContext } from "../../context";
import {
  answerUpgradeRequest as answerRow,
  countPendingUpgradeRequests,
  getUpgradeRequestById,
  listPendingUpgradeRequests,
  type PendingUpgradeRow,
} from "../../db/repositories/upgradeRequests";
import { AppError } from "../../errors";
import { findPlan, offeredPlans, type Plan, type PlanCatalog } from "../../../common/plans";
import { updateUser } from "../admin/updateUser";
import { planOf } from "../planPolicy";
import { notify } from "../notifications/notify";
import { UUID } from "../siteAccess";
import { presentUpgradeRequest, requestedPlanId } from "./present";

type Ctx = Pick<AppContext, "db" | "plans" | "env" | "events" | "log">;

function presentPending(ctx: Ctx, row: PendingUpgradeRow): AdminUpgradeRequest {
  const plan = row.userPlan ?? ctx.plans.defaultPlan;
  return { ...presentUpgradeRequest(ctx.plans, row), user: { id: row.user_id, email: row.email, name: row.name, plan } };
}

export async function listUpgradeRequests(ctx: Ctx, query: AdminUpgradeRequestsQuery): Promise<AdminUpgradeRequestsResponse> {
  const page = query.page ?? 1;
  const [rows, total] = await Promise.all([
    listPendingUpgradeRequests(ctx.db, { limit: ADMIN_UPGRADE_PAGE_SIZE, offset: (page - 1) * ADMIN_UPGRADE_PAGE_SIZE }),
    countPendingUpgradeRequests(ctx.db),
  ]);
  return { requests: rows.map((row) => presentPending(ctx, row)), total, page, pageSize: ADMIN_UPGRADE_PAGE_SIZE };
}

export async function answerUpgradeRequest(ctx: Ctx, adminId: string, requestId: string, answer: AdminUpgradeAnswer, now = new Date()) {
  const existing = UUID.test(requestId) ? await getUpgradeRequestById(ctx.db, requestId) : undefined;
  if (!existing) throw new AppError("upgrade_request_not_found", 404, "Request not found");
  const approve = answer.decision === "approve";
  const current = await planOf(ctx, existing.user_id);
  const asked = requestedPlanId(ctx.plans, existing);
  const requested = asked === null ? undefined : findPlan(ctx.plans, asked);
  // What an approval moves to: the plan asked for, while the catalogue still offers it to the
  // account; never a step down (the plans file may have changed, or an admin moved the user, since
  // the request was made).
  const target = requested && offeredPlans(ctx.plans, current.id).includes(requested) ? requested : undefined;
  if (approve && !target) throw notOffered(ctx.plans, current, requested, asked);
  const answered = await answerRow(ctx.db, requestId, { status: approve ? "approved" : "declined", adminId, at: now });
  if (!answered) throw new AppError("upgrade_request_answered", 409, `This request was ${existing.status} already.`);
  if (approve && target) await updateUser(ctx, adminId, answered.user_id, { plan: target.id }, now);
  await notify(ctx, {
    userId: answered.user_id,
    kind: "upgrade_answered",
    title: approve && target ? `Your account is now on ${target.name}` : `Your request for ${requested?.name ?? "another plan"} was declined`,
    body:
      approve && target
        ? `The ${target.name} plan's features and limits are yours to use.`
        : `Your account stays on ${current.name}. If you have questions, write to the operator from the help page.`,
    link: approve ? "/dashboard" : "/dashboard/help",
  });
  ctx.log.info({ requestId, userId: answered.user_id, decision: answer.decision, by: adminId }, "admin answered an upgrade request");
  return presentUpgradeRequest(ctx.plans, answered);
}

/** Why a request cannot be approved now; upgradeTo keeps the words it always had. */
function notOffered(plans: PlanCatalog, current: Plan, requested: Plan | undefined, asked: string | null): AppError {
  const what = !requested
    ? `This request is for a plan this server no longer offers${asked ? ` ("${asked}")` : ""}.`
    : requested.id === plans.upgradeTo
      ? `This account is on ${current.name}, and this server offers no plan above it to upgrade to.`
      : `This account is on ${current.name}, and ${requested.name} is not above it.`;
  return new AppError("no_upgrade", 409, `${what} Decline the request, or set the plan from the user's menu.`);
}
