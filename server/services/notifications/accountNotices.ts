// The notices about the account: storage crossing 80 % and 100 % of the plan, and a new plan.
import { formatBytes } from "../../../common/format";
import { formatPlanBytes, type Plan, type PlanId } from "../../../common/plans";
import type { AppContext } from "../../context";
import { getStorageNoticeLevel, moveStorageNoticeLevel } from "../../db/repositories/profiles";
import { storageUsedByUser } from "../../db/repositories/usage";
import { planById, planOf } from "../planPolicy";
import { notify } from "./notify";

type NoticeContext = Pick<AppContext, "db" | "plans" | "events">;

/** The share of the plan's storage at which the owner hears of it, in per cent. */
export const STORAGE_WARNING_PERCENT = 80;

/** 100 when the plan's storage is used up, 80 from 80 %, else 0 (always, for unlimited storage). */
export function storageLevel(used: number, limit: number | null): number {
  if (limit === null) return 0;
  if (used >= limit) return 100;
  return used * 100 >= limit * STORAGE_WARNING_PERCENT ? STORAGE_WARNING_PERCENT : 0;
}

/**
 * Compares the account's storage with its plan and tells the owner when it has crossed a higher
 * threshold than the one last told (profiles.storage_notice_level), once per crossing: falling
 * below a threshold lowers the stored one silently, so crossing it again is news again.
 */
export async function checkStorageNotice(ctx: NoticeContext, userId: string): Promise<void> {
  const [used, plan, told] = await Promise.all([storageUsedByUser(ctx.db, userId), planOf(ctx, userId), getStorageNoticeLevel(ctx.db, userId)]);
  const level = storageLevel(used, plan.storageBytes);
  if (level === told) return;
  // Under the row's lock: of two checks racing over the same crossing, one moves the level.
  const previous = await moveStorageNoticeLevel(ctx.db, userId, level);
  if (previous === undefined || level <= previous) return;
  const figures = `${formatBytes(used)} of ${formatPlanBytes(plan.storageBytes ?? used)} on the ${plan.name} plan.`;
  await notify(
    ctx,
    level === 100
      ? {
          userId,
          kind: "storage_full",
          title: "Your storage is full",
          body: `${figures} New uploads are refused until you delete files, deployments or sites.`,
          link: "/dashboard",
        }
      : {
          userId,
          kind: "storage_warning",
          title: `You have used ${STORAGE_WARNING_PERCENT}% of your storage`,
          body: `${figures} When it is full, new uploads are refused.`,
          link: "/dashboard",
        },
  );
}

/** "5 GB of storage and files up to 250 MB each.", as the plan sets them. */
function planLimitsSentence(plan: Pick<Plan, "storageBytes" | "maxFileBytes">): string {
  const storage = plan.storageBytes === null ? "Unlimited storage" : `${formatPlanBytes(plan.storageBytes)} of storage`;
  const files = plan.maxFileBytes === null ? "files of any size that fits" : `files up to ${formatPlanBytes(plan.maxFileBytes)} each`;
  return `${storage} and ${files}.`;
}

/** After the operator moved the user to another plan. */
export async function noticePlanChanged(ctx: NoticeContext, userId: string, planId: PlanId): Promise<void> {
  const plan = planById(ctx.plans, planId);
  await notify(ctx, {
    userId,
    kind: "plan_changed",
    title: `You are now on the ${plan.name} plan`,
    body: planLimitsSentence(plan),
    link: "/dashboard",
  });
  // The new limit may put the account past a threshold, or back under one.
  await checkStorageNotice(ctx, userId);
}
