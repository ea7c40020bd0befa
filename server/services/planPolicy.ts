// What a user's plan allows, read in one place: the features a change needs (requireFeature) and
// the limits uploads, history and the overview follow (planOf). The plans themselves are in
// common/plans.ts; the operator moves a user between them (profiles.plan).
import { DOMAIN_TEXT } from "../../common/domains";
import { PLANS, type Plan, type PlanFeature } from "../../common/plans";
import { SHARE_LINK_TEXT } from "../../common/shareLinks";
import { SCHEDULE_TEXT, SITE_PASSWORD_TEXT } from "../../common/sites";
import type { AppContext } from "../context";
import { getPlanIdForUser } from "../db/repositories/profiles";
import { AppError } from "../errors";

/** The refusal of each feature a change can need, in the words the dashboard shows. */
const REFUSALS = {
  customDomains: DOMAIN_TEXT.proRequired,
  passwordProtection: SITE_PASSWORD_TEXT.proRequired,
  expiringLinks: SHARE_LINK_TEXT.proRequired,
  privateSites: SHARE_LINK_TEXT.privateProRequired,
  siteExpiry: SCHEDULE_TEXT.proRequired,
} satisfies Partial<Record<PlanFeature, string>>;

/** A feature some change needs; a new gate adds its refusal above. */
export type GatedFeature = keyof typeof REFUSALS;

/** The user's plan, with its limits (a user without a profile row is on Free). */
export async function planOf(ctx: Pick<AppContext, "db">, userId: string): Promise<Plan> {
  return PLANS[await getPlanIdForUser(ctx.db, userId)];
}

/** 403 pro_required, naming the feature, unless the user's plan has it. */
export async function requireFeature(ctx: Pick<AppContext, "db">, userId: string, feature: GatedFeature): Promise<void> {
  if (!(await planOf(ctx, userId))[feature]) throw new AppError("pro_required", 403, REFUSALS[feature]);
}
