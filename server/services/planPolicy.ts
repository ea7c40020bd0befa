// What a user's plan allows, read in one place: the features a change needs (requireFeature) and
// the limits uploads, history and the overview follow (planOf). The plans are the server's
// (AppContext.plans: BERTH_PLANS_FILE, or the built-in Free and Pro); the operator moves a user
// between them (profiles.plan).
import { featureRequired, type GatedFeature } from "../../common/featureRequired";
import { defaultPlanOf, findPlan, type Plan, type PlanCatalog } from "../../common/plans";
import type { AppContext } from "../context";
import { getPlanIdForUser } from "../db/repositories/profiles";
import { AppError } from "../errors";

/**
 * The plan with this id. Startup refuses a plans file that leaves an account on a plan it does not
 * define (plans/storedPlans.ts), so an unknown id is a bug, never a reason to guess a plan.
 */
export function planById(plans: PlanCatalog, id: string): Plan {
  const plan = findPlan(plans, id);
  if (!plan) throw new Error(`plan "${id}" is not one of this server's plans (${plans.plans.map((p) => p.id).join(", ")})`);
  return plan;
}

/** The user's plan, with its limits (a user without a profile row is on the default plan). */
export async function planOf(ctx: Pick<AppContext, "db" | "plans">, userId: string): Promise<Plan> {
  const id = await getPlanIdForUser(ctx.db, userId);
  return id === undefined ? defaultPlanOf(ctx.plans) : planById(ctx.plans, id);
}

/**
 * 403 pro_required unless the user's plan has the feature, in the words the dashboard shows: they
 * name the first plan that has it, or say that this server offers it on none.
 */
export async function requireFeature(ctx: Pick<AppContext, "db" | "plans">, userId: string, feature: GatedFeature): Promise<void> {
  if (!(await planOf(ctx, userId))[feature]) throw new AppError("pro_required", 403, featureRequired(ctx.plans, feature).message);
}
