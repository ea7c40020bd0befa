// Publish checks: one row per published deployment, the worker's job and its result in one place.
import { and, eq, inArray, isNull, lte, or, sql } from "drizzle-orm";
import type { CheckSummary } from "../../../common/checks";
import type { Executor } from "../client";
import { deploymentChecks, deployments, sites } from "../schema";

export type DeploymentCheck = typeof deploymentChecks.$inferSelect;

/** Queues the check of a deployment; call in the transaction that publishes it. */
export async function insertDeploymentCheck(tx: Executor, deploymentId: string): Promise<void> {
  await tx.insert(deploymentChecks).values({ deployment_id: deploymentId }).onConflictDoNothing();
}

/** A claimed check with what running it needs: the deployment's site and rules. */
export type ClaimedCheck = DeploymentCheck & {
  lease_token: string;
  site_id: string;
  user_id: string;
  site_name: string;
  subdomain: string;
  version: number;
  config: unknown;
};

/**
 * Takes up to `limit` pending checks for this worker alone, oldest first: each gets `leaseToken`
 * until `leasedUntil` and one more attempt counted. Rows another worker is claiming are skipped
 * (SKIP LOCKED); a dead worker's rows are due again when the lease runs out.
 */
export async function claimDueChecks(db: Executor, now: Date, leaseToken: string, leasedUntil: Date, limit: number): Promise<ClaimedCheck[]> {
  const due = db
    .select({ id: deploymentChecks.deployment_id })
    .from(deploymentChecks)
    .where(and(eq(deploymentChecks.status, "pending"), or(isNull(deploymentChecks.leased_until), lte(deploymentChecks.leased_until, now))))
    .orderBy(deploymentChecks.created_at)
    .limit(limit)
    .for("update", { skipLocked: true });
  const claimed = await db
    .update(deploymentChecks)
    .set({ lease_token: leaseToken, leased_until: leasedUntil, attempts: sql`${deploymentChecks.attempts} + 1` })
    .where(and(inArray(deploymentChecks.deployment_id, due), eq(deploymentChecks.status, "pending")))
    .returning();
  if (claimed.length === 0) return [];
  const owners = await db
    .select({
      id: deployments.id,
      site_id: sites.id,
      user_id: sites.user_id,
      site_name: sites.name,
      subdomain: sites.subdomain,
      version: deployments.version,
      config: deployments.config,
    })
    .from(deployments)
    .innerJoin(sites, eq(sites.id, deployments.site_id))
    .where(
      inArray(
        deployments.id,
        claimed.map((c) => c.deployment_id),
      ),
    );
  const byId = new Map(owners.map((o) => [o.id, o]));
  return claimed.flatMap((check) => {
    const owner = byId.get(check.deployment_id);
    return owner ? [{ ...check, ...owner, lease_token: leaseToken }] : [];
  });
}

export type CheckResult = Pick<
  DeploymentCheck,
  "status" | "problem_count" | "counts" | "findings" | "renames" | "files_checked" | "files_partly_checked" | "error" | "checked_at"
>;

/** Writes a check's result and lets the lease go, only while this worker's claim holds; undefined otherwise. */
export async function recordCheckResult(
  db: Executor,
  deploymentId: string,
  leaseToken: string,
  result: CheckResult,
): Promise<DeploymentCheck | undefined> {
  const [row] = await db
    .update(deploymentChecks)
    .set({ ...result, lease_token: null, leased_until: null })
    .where(and(eq(deploymentChecks.deployment_id, deploymentId), eq(deploymentChecks.lease_token, leaseToken)))
    .returning();
  return row;
}

/** A try that failed: the lease goes, so the next tick tries again. */
export async function releaseCheck(db: Executor, deploymentId: string, leaseToken: string): Promise<void> {
  await db
    .update(deploymentChecks)
    .set({ lease_token: null, leased_until: null })
    .where(and(eq(deploymentChecks.deployment_id, deploymentId), eq(deploymentChecks.lease_token, leaseToken)));
}

/** The check of one of the site's deployments (the caller has scoped the site to its owner). */
export async function getCheckForSite(
  db: Executor,
  siteId: string,
  deploymentId: string,
): Promise<(DeploymentCheck & { version: number }) | undefined> {
  const [row] = await db
    .select({ check: deploymentChecks, version: deployments.version })
    .from(deploymentChecks)
    .innerJoin(deployments, eq(deployments.id, deploymentChecks.deployment_id))
    .where(and(eq(deploymentChecks.deployment_id, deploymentId), eq(deployments.site_id, siteId)));
  return row ? { ...row.check, version: row.version } : undefined;
}

/** The summaries of the given deployments' checks, by deployment id (none for versions published before checks existed). */
export async function checkSummaries(db: Executor, deploymentIds: string[]): Promise<Map<string, CheckSummary>> {
  if (deploymentIds.length === 0) return new Map();
  const rows = await db
    .select({
      deployment_id: deploymentChecks.deployment_id,
      status: deploymentChecks.status,
      problem_count: deploymentChecks.problem_count,
      counts: deploymentChecks.counts,
    })
    .from(deploymentChecks)
    .where(inArray(deploymentChecks.deployment_id, deploymentIds));
  return new Map(rows.map(({ deployment_id, ...summary }) => [deployment_id, summary]));
}
