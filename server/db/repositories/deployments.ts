import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { Executor } from "../client";
import { rowsOf } from "../rows";
import { deploymentFiles, deployments, siteFiles, sites } from "../schema";

export type Deployment = typeof deployments.$inferSelect;
export type DeploymentFile = typeof deploymentFiles.$inferSelect;

export async function listDeploymentsForSite(db: Executor, siteId: string): Promise<Deployment[]> {
  return db.select().from(deployments).where(eq(deployments.site_id, siteId)).orderBy(desc(deployments.version));
}

export async function getDeploymentForSite(db: Executor, siteId: string, deploymentId: string): Promise<Deployment | undefined> {
  const [row] = await db
    .select()
    .from(deployments)
    .where(and(eq(deployments.id, deploymentId), eq(deployments.site_id, siteId)));
  return row;
}

/** A new deployment numbered after the site's last one. The caller holds the site's row lock. */
export async function insertNextDeployment(tx: Executor, siteId: string, note: string | null): Promise<Deployment> {
  const [row] = await tx
    .insert(deployments)
    .values({
      site_id: siteId,
      version: sql`(select coalesce(max(${deployments.version}), 0) + 1 from ${deployments} where ${deployments.site_id} = ${siteId})`,
      status: "in_progress",
      note,
    })
    .returning();
  return row!;
}

/** Snapshots the site's working tree into the deployment's manifest; returns its count and size. */
export async function snapshotSiteFiles(tx: Executor, siteId: string, deploymentId: string): Promise<{ count: number; size: number }> {
  await tx.execute(sql`
    insert into ${deploymentFiles} (deployment_id, path, sha256, size, content_type)
    select ${deploymentId}, ${siteFiles.file_path}, ${siteFiles.sha256}, ${siteFiles.file_size}, coalesce(${siteFiles.file_type}, 'application/octet-stream')
    from ${siteFiles}
    where ${siteFiles.site_id} = ${siteId} and not ${siteFiles.is_folder}`);
  const [totals] = await tx
    .select({ count: sql<number>`count(*)::int`, size: sql<number>`coalesce(sum(${deploymentFiles.size}), 0)::bigint` })
    .from(deploymentFiles)
    .where(eq(deploymentFiles.deployment_id, deploymentId));
  return { count: Number(totals?.count ?? 0), size: Number(totals?.size ?? 0) };
}

export async function markDeploymentSucceeded(
  tx: Executor,
  deploymentId: string,
  values: { file_count: number; total_size: number; deployment_url: string; config: unknown; is_draft?: boolean },
): Promise<Deployment> {
  const [row] = await tx
    .update(deployments)
    .set({ ...values, status: "success", published_at: new Date(), error: null })
    .where(eq(deployments.id, deploymentId))
    .returning();
  return row!;
}

/** A deployment that goes live is no longer a draft. */
export async function clearDraft(tx: Executor, deploymentId: string): Promise<void> {
  await tx
    .update(deployments)
    .set({ is_draft: false })
    .where(and(eq(deployments.id, deploymentId), eq(deployments.is_draft, true)));
}

export async function markDeploymentFailed(db: Executor, deploymentId: string, error: string): Promise<Deployment | undefined> {
  const [row] = await db.update(deployments).set({ status: "failed", error }).where(eq(deployments.id, deploymentId)).returning();
  return row;
}

export async function getManifest(db: Executor, deploymentId: string): Promise<DeploymentFile[]> {
  return db.select().from(deploymentFiles).where(eq(deploymentFiles.deployment_id, deploymentId));
}

/** The successful deployment of a site with this version number (for {sub}--v{n} hosts). */
export async function getSuccessfulDeploymentByVersion(db: Executor, siteId: string, version: number): Promise<Deployment | undefined> {
  const [row] = await db
    .select()
    .from(deployments)
    .where(and(eq(deployments.site_id, siteId), eq(deployments.version, version), eq(deployments.status, "success")));
  return row;
}

export async function countDeploymentsForUser(db: Executor, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(deployments)
    .innerJoin(sites, eq(sites.id, deployments.site_id))
    .where(eq(sites.user_id, userId));
  return Number(row?.n ?? 0);
}

export async function getDeploymentById(db: Executor, deploymentId: string): Promise<Deployment | undefined> {
  const [row] = await db.select().from(deployments).where(eq(deployments.id, deploymentId));
  return row;
}

/**
 * Finished deployments of a site beyond the newest `keep` (by version), leaving out the live one
 * and any still running: what a plan's history limit lets go. Call with the site row locked.
 */
export async function deploymentsBeyondHistory(tx: Executor, siteId: string, keep: number): Promise<string[]> {
  const result = await tx.execute(sql`
    select d.id from deployments d join sites s on s.id = d.site_id
    where d.site_id = ${siteId}
      and d.status in ('success', 'failed')
      and d.id is distinct from s.live_deployment_id
      and d.version < coalesce((
        select min(version) from (
          select version from deployments where site_id = ${siteId} order by version desc limit ${keep}
        ) newest), 0)`);
  return rowsOf<{ id: string }>(result).map((r) => r.id);
}

/** The blobs the given deployments refer to: the candidates for garbage when they go. */
export async function blobsOfDeployments(db: Executor, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectDistinct({ sha256: deploymentFiles.sha256 }).from(deploymentFiles).where(inArray(deploymentFiles.deployment_id, ids));
  return rows.map((r) => r.sha256);
}

/** Deletes deployments; their file lists go with them (foreign key cascade). */
export async function deleteDeployments(tx: Executor, ids: string[]): Promise<void> {
  if (ids.length > 0) await tx.delete(deployments).where(inArray(deployments.id, ids));
}

/**
 * Marks as failed the deployments still pending or in progress that started before `before`: a
 * publish runs for seconds, so these belong to a process that died. Returns them with their site.
 */
export async function failDeploymentsStartedBefore(
  db: Executor,
  before: Date,
  error: string,
): Promise<Array<{ deployment: Deployment; userId: string; subdomain: string }>> {
  const failed = await db
    .update(deployments)
    .set({ status: "failed", error })
    .where(and(inArray(deployments.status, ["pending", "in_progress"]), sql`${deployments.created_at} < ${before.toISOString()}`))
    .returning();
  if (failed.length === 0) return [];
  const owners = await db
    .select({ id: sites.id, userId: sites.user_id, subdomain: sites.subdomain })
    .from(sites)
    .where(inArray(sites.id, [...new Set(failed.map((d) => d.site_id))]));
  const bySite = new Map(owners.map((o) => [o.id, o]));
  return failed.map((deployment) => ({
    deployment,
    userId: bySite.get(deployment.site_id)!.userId,
    subdomain: bySite.get(deployment.site_id)!.subdomain,
  }));
}
