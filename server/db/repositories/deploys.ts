// Deploys through the API (schema.ts, `deploys` and `deploy_uploads`). The manifest is one jsonb
// array per deploy, so every question about its files is one set-based statement over
// jsonb_to_recordset instead of a row per file: a redeploy of 1,000 files stays a few queries.
import { and, eq, getTableColumns, lt, sql } from "drizzle-orm";
import type { Executor } from "../client";
import { rowsOf, unquotedArray } from "../rows";
import { deploys } from "../schema";

export type Deploy = Omit<typeof deploys.$inferSelect, "manifest">;

/** One file of a deploy's manifest as stored: the path is the site path (NFC), the type is what the edge serves it with. */
export interface StoredManifestEntry {
  path: string;
  sha256: string;
  size: number;
  content_type: string;
}

// Every column but the manifest, which can be megabytes and is only ever read by SQL.
const { manifest: _manifest, ...deployColumns } = getTableColumns(deploys);

const entries = (deployId: string) =>
  sql`deploys d cross join lateral jsonb_to_recordset(d.manifest) as m(path text, sha256 text, size bigint, content_type text) where d.id = ${deployId}`;

export interface NewDeploy {
  id: string;
  site_id: string;
  user_id: string;
  manifest: StoredManifestEntry[];
  /** Empty folders to make in the working tree at publish (normalised, none holding a manifest file). */
  folders: string[];
  manifest_hash: string | null;
  file_count: number;
  total_size: number;
  message: string | null;
  draft: boolean;
  expires_at: Date;
}

/**
 * Inserts the deploy, unless the site already has an open one with the same manifest hash: then
 * that one, untouched. `created` tells which.
 */
export async function insertOrFindOpenDeploy(tx: Executor, values: NewDeploy): Promise<{ deploy: Deploy; created: boolean }> {
  const [inserted] = await tx
    .insert(deploys)
    .values(values)
    .onConflictDoNothing({ target: [deploys.site_id, deploys.manifest_hash], where: sql`${deploys.status} = 'uploading'` })
    .returning(deployColumns);
  if (inserted) return { deploy: inserted, created: true };
  const [existing] = await tx
    .select(deployColumns)
    .from(deploys)
    .where(and(eq(deploys.site_id, values.site_id), eq(deploys.manifest_hash, values.manifest_hash!), eq(deploys.status, "uploading")));
  return { deploy: existing!, created: false };
}

/** An open deploy with this hash that has expired blocks a new one with the same manifest: it goes (the sweep would take it anyway). */
export async function deleteExpiredOpenDeploy(tx: Executor, siteId: string, manifestHash: string, now: Date): Promise<void> {
  await tx
    .delete(deploys)
    .where(and(eq(deploys.site_id, siteId), eq(deploys.manifest_hash, manifestHash), eq(deploys.status, "uploading"), lt(deploys.expires_at, now)));
}

/** The user's deploy on this site; someone else's is the same undefined. */
export async function getDeployForUser(db: Executor, userId: string, siteId: string, deployId: string): Promise<Deploy | undefined> {
  const [row] = await db
    .select(deployColumns)
    .from(deploys)
    .where(and(eq(deploys.id, deployId), eq(deploys.site_id, siteId), eq(deploys.user_id, userId)));
  return row;
}

/**
 * Locks the deploy's row for the rest of the transaction: "update" to publish it, "share" to add
 * received files (many uploads at once, none while it is being published).
 */
export async function lockDeploy(tx: Executor, deployId: string, mode: "update" | "share"): Promise<Deploy | undefined> {
  const [row] = await tx.select(deployColumns).from(deploys).where(eq(deploys.id, deployId)).for(mode);
  return row;
}

/**
 * Of these digests (distinct, in the order given), those the deploy's user does not store yet (no
 * user_blobs row), each with whether this deploy has received it. Only the user's own references
 * count: another user's copy of the same bytes proves nothing about this user having them.
 */
export async function digestsNotStoredByUser(
  db: Executor,
  deployId: string,
  userId: string,
  shas: readonly string[],
): Promise<{ sha256: string; received: boolean }[]> {
  if (shas.length === 0) return [];
  const notStored = await digestsTheUserStores(db, userId, shas, false);
  const received = await digestsReceived(db, deployId, notStored);
  return notStored.map((sha256) => ({ sha256, received: received.has(sha256) }));
}

/** Of these digests, in the order given, those the user stores (`stores`), or those it does not. */
async function digestsTheUserStores(db: Executor, userId: string, shas: readonly string[], stores: boolean): Promise<string[]> {
  const result = await db.execute(sql`
    select c.sha256 from unnest(${unquotedArray(shas)}::text[]) with ordinality as c(sha256, n)
    where ${stores ? sql`` : sql`not`} exists (select 1 from user_blobs ub where ub.user_id = ${userId} and ub.sha256 = c.sha256)
    order by c.n`);
  return rowsOf<{ sha256: string }>(result).map((r) => r.sha256);
}

/**
 * Of these digests, those this deploy has received. Asked on its own rather than as a subquery per
 * digest: on tables the embedded database had not analyzed yet, the planner scanned
 * deploy_uploads once per digest that way (60 ms for 1,000 of them, against 4).
 */
async function digestsReceived(db: Executor, deployId: string, shas: readonly string[]): Promise<Set<string>> {
  if (shas.length === 0) return new Set();
  const result = await db.execute(sql`
    select sha256 from deploy_uploads where deploy_id = ${deployId} and sha256 = any(${unquotedArray(shas)}::text[])`);
  return new Set(rowsOf<{ sha256: string }>(result).map((r) => r.sha256));
}

/**
 * Each distinct digest of the manifest, in digest order, with its size and the first path in the
 * manifest's own order (code units, as it was stored) that has it: the same in every database,
 * whatever its collation, and the same as services/deployDigests.ts works out from the request.
 */
export async function manifestDigests(db: Executor, deployId: string): Promise<Map<string, { path: string; size: number }>> {
  const result = await db.execute(sql`
    select distinct on (m.sha256) m.sha256, m.size, m.path
    from deploys d
      cross join lateral rows from (jsonb_to_recordset(d.manifest) as (path text, sha256 text, size bigint)) with ordinality as m(path, sha256, size, n)
    where d.id = ${deployId}
    order by m.sha256, m.n`);
  // Digests are lowercase hex, which every collation orders alike; sorted here all the same, by
  // code units, so that no database setting can change the order.
  const rows = rowsOf<{ sha256: string; size: string | number; path: string }>(result).sort((a, b) => (a.sha256 < b.sha256 ? -1 : 1));
  return new Map(rows.map((r) => [r.sha256, { path: r.path, size: Number(r.size) }]));
}

/** The manifest's entries at these paths (the site's configuration files). */
export async function manifestEntriesAt(db: Executor, deployId: string, paths: string[]): Promise<StoredManifestEntry[]> {
  const result = await db.execute(sql`
    select m.path, m.sha256, m.size, m.content_type from ${entries(deployId)} and m.path in (${sql.join(
      paths.map((p) => sql`${p}`),
      sql`, `,
    )})`);
  return rowsOf<{ path: string; sha256: string; size: string | number; content_type: string }>(result).map((r) => ({ ...r, size: Number(r.size) }));
}

/** Of these digests, those the user stores or this deploy has received: nothing to store again. */
export async function digestsHeld(db: Executor, deployId: string, userId: string, shas: string[]): Promise<Set<string>> {
  if (shas.length === 0) return new Set();
  const stored = new Set(await digestsTheUserStores(db, userId, shas, true));
  const received = await digestsReceived(
    db,
    deployId,
    shas.filter((sha256) => !stored.has(sha256)),
  );
  return new Set([...stored, ...received]);
}

/** Records digests as received. The caller holds their blob locks and has checked the bytes are stored. */
export async function recordUploads(tx: Executor, deployId: string, shas: string[]): Promise<void> {
  if (shas.length === 0) return;
  await tx.execute(sql`
    insert into deploy_uploads (deploy_id, sha256)
    select ${deployId}, c.sha256 from unnest(${unquotedArray(shas)}::text[]) as c(sha256)
    on conflict do nothing`);
}

/** Copies the deploy's manifest into the deployment's files. */
export async function insertDeploymentFilesFromDeploy(tx: Executor, deploymentId: string, deployId: string): Promise<void> {
  await tx.execute(sql`
    insert into deployment_files (deployment_id, path, sha256, size, content_type)
    select ${deploymentId}, m.path, m.sha256, m.size, m.content_type from ${entries(deployId)}`);
}

export async function markDeployPublished(tx: Executor, deployId: string, deploymentId: string): Promise<Deploy> {
  const [row] = await tx
    .update(deploys)
    .set({ status: "published", deployment_id: deploymentId, error: null })
    .where(eq(deploys.id, deployId))
    .returning(deployColumns);
  return row!;
}

export async function markDeployFailed(tx: Executor, deployId: string, deploymentId: string | null, error: string): Promise<Deploy> {
  const [row] = await tx
    .update(deploys)
    .set({ status: "failed", deployment_id: deploymentId, error })
    .where(eq(deploys.id, deployId))
    .returning(deployColumns);
  return row!;
}

export async function deleteDeploy(db: Executor, deployId: string): Promise<void> {
  await db.delete(deploys).where(eq(deploys.id, deployId));
}

/** Deletes every deploy past its expiry, whatever its status; returns how many went. */
export async function deleteExpiredDeploys(db: Executor, now: Date): Promise<number> {
  const gone = await db.delete(deploys).where(lt(deploys.expires_at, now)).returning({ id: deploys.id });
  return gone.length;
}
