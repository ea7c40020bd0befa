// GET /api/stats: the overview's figures and the user's plan, which the dashboard reads to offer
// or withhold each plan feature and to show the limits (it never works them out from the plan id).
import { featuresOf } from "../../common/plans";
import type { StatsResponse } from "../../common/sites";
import type { AppContext } from "../context";
import { countDeploymentsForUser } from "../db/repositories/deployments";
import { countSitesForUser } from "../db/repositories/sites";
import { storageUsedByUser } from "../db/repositories/usage";
import { planOf } from "./planPolicy";
import { bandwidthLast30Days } from "./siteAnalytics";

export async function accountStats(ctx: Pick<AppContext, "db" | "plans">, userId: string, now = new Date()): Promise<StatsResponse> {
  const [plan, sites, deployments, used, bandwidth] = await Promise.all([
    planOf(ctx, userId),
    countSitesForUser(ctx.db, userId),
    countDeploymentsForUser(ctx.db, userId),
    storageUsedByUser(ctx.db, userId),
    bandwidthLast30Days(ctx.db, userId, now),
  ]);
  return {
    total_sites: sites,
    deployments,
    storage_used: used,
    storage_quota: plan.storageBytes,
    max_file_bytes: plan.maxFileBytes,
    plan: plan.id,
    plan_name: plan.name,
    features: featuresOf(plan),
    deployments_kept: plan.deploymentsKept,
    bandwidth_30d: bandwidth,
  };
}
