import { inArray, sql } from "drizzle-orm";
import { rowsOf, type Executor } from "../client";
import { blobs } from "../schema";

export async function registerBlobs(tx: Executor, entries: { sha256: string; size: number }[]): Promise<void> {
  const unique = [...new Map(entries.map((e) => [e.sha256, e])).values()];
  for (let i = 0; i < unique.length; i += 1000) {
    await tx.insert(blobs).values(unique.slice(i, i + 1000)).onConflictDoNothing();
  }
}

/** Of the given blobs, those no working tree and no kept deployment refers to any more. */
export async function unreferencedBlobs(db: Executor, candidates: string[]): Promise<string[]> {
  if (candidates.length === 0) return [];
  const result = await db.execute(sql`
    select b.sha256 from blobs b
    where b.sha256 in (${sql.join(candidates.map((c) => sql`${c}`), sql`, `)})
      and not exists (select 1 from site_files sf where sf.sha256 = b.sha256)
      and not exists (select 1 from deployment_files df where df.sha256 = b.sha256)
      and not exists (select 1 from blob_variants v where v.variant_sha256 = b.sha256)
      and not exists (select 1 from profiles p where p.avatar_sha256 = b.sha256)`);
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
 * Of the given blobs, those no row refers to, whether or not they have a row in blobs (a crash
 * between storing bytes and recording them leaves none): what the orphan sweeper may delete.
 * A compressed form's source counts as referred to; deleteStrandedVariants() clears those first.
 */
export async function blobsNothingRefersTo(db: Executor, candidates: string[]): Promise<string[]> {
  if (candidates.length === 0) return [];
  const result = await db.execute(sql`
    select c.sha256 from (values ${sql.join(candidates.map((c) => sql`(${c})`), sql`, `)}) as c(sha256)
    where not exists (select 1 from site_files sf where sf.sha256 = c.sha256)
      and not exists (select 1 from deployment_files df where df.sha256 = c.sha256)
      and not exists (select 1 from blob_variants v where v.variant_sha256 = c.sha256 or v.sha256 = c.sha256)
      and not exists (select 1 from profiles p where p.avatar_sha256 = c.sha256)`);
  return rowsOf<{ sha256: string }>(result).map((r) => r.sha256);
}
