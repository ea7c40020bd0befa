import { inArray, sql, type SQL } from "drizzle-orm";
import type { Executor } from "../client";
import { rowsOf, unquotedArray } from "../rows";
import { blobs } from "../schema";

/** pg_advisory_xact_lock(int, int) keys: never the same locks as the one-key form used elsewhere. */
const BLOB_LOCK_SPACE = 0x626c6f62; // "blob"

/**
 * Serialises, for the rest of the transaction, everything that decides a blob's bytes are needed
 * or not: a commit recording rows that refer to blobs (after checking their bytes are still
 * stored), and the deletion of bytes nothing refers to (after checking no row does). Blobs are
 * locked in 256 buckets by their first byte, always in ascending order and in one statement, so
 * two callers cannot deadlock on each other's buckets, and a 10,000-file commit holds at most 256
 * locks (PostgreSQL's shared lock table has room for about 64 per connection). Take them once per
 * transaction, before writing the rows that refer to the blobs: holders go on to lock such rows
 * (and the usage counts they update), so nobody may wait here while holding one.
 */
export async function lockBlobs(tx: Executor, shas: Iterable<string>): Promise<void> {
  const buckets = [...new Set([...shas].map((sha) => Number.parseInt(sha.slice(0, 2), 16)))].sort((a, b) => a - b);
  if (buckets.length === 0) return;
  // unnest yields the array in order, so the locks are taken in ascending order.
  await tx.execute(sql`select count(pg_advisory_xact_lock(${BLOB_LOCK_SPACE}, b)) from unnest(${unquotedArray(buckets)}::int[]) as b`);
}

/** lockBlobs for every digest of a deploy's manifest, found by SQL rather than sent from here. */
export async function lockBlobsOfDeploy(tx: Executor, deployId: string): Promise<void> {
  await tx.execute(sql`
    select count(pg_advisory_xact_lock(${BLOB_LOCK_SPACE}, b)) from unnest((
      select array_agg(distinct ('x' || substr(m.sha256, 1, 2))::bit(8)::int order by ('x' || substr(m.sha256, 1, 2))::bit(8)::int)
      from deploys d cross join lateral jsonb_to_recordset(d.manifest) as m(sha256 text) where d.id = ${deployId}
    )) as b`);
}

export async function registerBlobs(tx: Executor, entries: { sha256: string; size: number }[]): Promise<void> {
  const unique = [...new Map(entries.map((e) => [e.sha256, e])).values()];
  for (let i = 0; i < unique.length; i += 1000) {
    await tx
      .insert(blobs)
      .values(unique.slice(i, i + 1000))
      .onConflictDoNothing();
  }
}

/**
 * A deploy that is still open refers to the files it has received: they are unreferenced by any
 * file row until it publishes, for as long as DEPLOY_OPEN_HOURS, so age alone cannot protect them.
 */
const openDeployUpload = (sha256: SQL) =>
  sql`select 1 from deploy_uploads u join deploys d on d.id = u.deploy_id where u.sha256 = ${sha256} and d.status = 'uploading'`;

/** Of the given blobs, those no working tree, kept deployment or open deploy refers to any more. */
export async function unreferencedBlobs(db: Executor, candidates: string[]): Promise<string[]> {
  if (candidates.length === 0) return [];
  const result = await db.execute(sql`
    select b.sha256 from blobs b
    where b.sha256 in (${sql.join(
      candidates.map((c) => sql`${c}`),
      sql`, `,
    )})
      and not exists (select 1 from site_files sf where sf.sha256 = b.sha256)
      and not exists (select 1 from deployment_files df where df.sha256 = b.sha256)
      and not exists (select 1 from blob_variants v where v.variant_sha256 = b.sha256)
      and not exists (select 1 from profiles p where p.avatar_sha256 = b.sha256)
      and not exists (${openDeployUpload(sql`b.sha256`)})`);
  return rowsOf<{ sha256: string }>(result).map((r) => r.sha256);
}

/** Blobs referenced by a site's files and deployments: the candidates for garbage when it goes. */
export async function blobsOfSite(db: Executor, siteId: string): Promise<string[]> {
  const result = await db.execute(sql`
    select sha256 from site_files where site_id = ${siteId} and sha256 is not null
    union
    select df.sha256 from deployment_files df join deployments d on d.id = df.deployment_id where d.site_id = ${siteId}`);
  return rowsOf<{ sha256: string }>(result).map((r) => r.sha256);
}

export async function deleteBlobRows(tx: Executor, shas: string[]): Promise<void> {
  if (shas.length > 0) await tx.delete(blobs).where(inArray(blobs.sha256, shas));
}

/**
 * Of the given blobs, those no row refers to (an open deploy's received files included), whether or not they have a row in blobs (a crash
 * between storing bytes and recording them leaves none): what the orphan sweeper may delete.
 * A compressed form's source counts as referred to; deleteStrandedVariants() clears those first.
 */
export async function blobsNothingRefersTo(db: Executor, candidates: string[]): Promise<string[]> {
  if (candidates.length === 0) return [];
  const result = await db.execute(sql`
    select c.sha256 from (values ${sql.join(
      candidates.map((c) => sql`(${c})`),
      sql`, `,
    )}) as c(sha256)
    where not exists (select 1 from site_files sf where sf.sha256 = c.sha256)
      and not exists (select 1 from deployment_files df where df.sha256 = c.sha256)
      and not exists (select 1 from blob_variants v where v.variant_sha256 = c.sha256 or v.sha256 = c.sha256)
      and not exists (select 1 from profiles p where p.avatar_sha256 = c.sha256)
      and not exists (${openDeployUpload(sql`c.sha256`)})`);
  return rowsOf<{ sha256: string }>(result).map((r) => r.sha256);
}
