import { sql } from "drizzle-orm";
import type { Executor } from "../client";
import { rowsOf } from "../rows";
import { blobVariants } from "../schema";

export interface VariantRow {
  sha256: string;
  encoding: "br" | "gzip";
  variant_sha256: string | null;
  size: number | null;
}

/** Blobs of live deployments bigger than `minBytes` that have not been considered for compression yet. */
export async function blobsAwaitingCompression(
  db: Executor,
  options: { minBytes: number; limit: number },
): Promise<{ sha256: string; size: number; contentType: string }[]> {
  const result = await db.execute(sql`
    select df.sha256, max(df.size) as size, max(df.content_type) as content_type
    from deployment_files df
    join sites s on s.live_deployment_id = df.deployment_id
    where df.size > ${options.minBytes}
      -- A deleted site serves nothing and may be purged under the compressor; restored, it is
      -- taken up at the worker's next tick.
      and not s.is_deleted
      -- brotli is settled last (compressVariants.ts): a blob with only its gzip form was
      -- interrupted between the two, by a stop or a crash, and is taken up again.
      and not exists (select 1 from blob_variants v where v.sha256 = df.sha256 and v.encoding = 'br')
    group by df.sha256
    limit ${options.limit}`);
  return rowsOf<{ sha256: string; size: string | number; content_type: string }>(result).map((r) => ({
    sha256: r.sha256,
    size: Number(r.size),
    contentType: r.content_type,
  }));
}

export async function recordVariant(db: Executor, row: VariantRow): Promise<void> {
  await db.insert(blobVariants).values(row).onConflictDoNothing();
}

/** Records, in one statement, that these blobs get no compressed form in either encoding. */
export async function recordNoVariants(db: Executor, shas: readonly string[]): Promise<void> {
  if (shas.length === 0) return;
  const rows = shas.flatMap((sha256) => (["gzip", "br"] as const).map((encoding) => ({ sha256, encoding, variant_sha256: null, size: null })));
  await db.insert(blobVariants).values(rows).onConflictDoNothing();
}

/** Variants of the given blobs, for the edge's manifest. */
export async function variantsOf(db: Executor, shas: string[]): Promise<VariantRow[]> {
  if (shas.length === 0) return [];
  const result = await db.execute(sql`
    select sha256, encoding, variant_sha256, size from blob_variants
    where variant_sha256 is not null and sha256 in (${sql.join(
      shas.map((s) => sql`${s}`),
      sql`, `,
    )})`);
  return rowsOf<VariantRow & { size: string | number }>(result).map((r) => ({ ...r, size: Number(r.size) }));
}

/** Removes the variant rows of blobs that are going away; returns the variant blobs to delete. */
export async function deleteVariantsOf(db: Executor, shas: string[]): Promise<string[]> {
  if (shas.length === 0) return [];
  const result = await db.execute(sql`
    delete from blob_variants where sha256 in (${sql.join(
      shas.map((s) => sql`${s}`),
      sql`, `,
    )})
    returning variant_sha256`);
  return rowsOf<{ variant_sha256: string | null }>(result)
    .map((r) => r.variant_sha256)
    .filter((s): s is string => s !== null);
}

/**
 * Deletes compressed forms, recorded before `before`, of blobs nothing else refers to: a
 * compression that finished after its blob was released leaves them. Returns the variant blobs.
 */
export async function deleteStrandedVariants(db: Executor, before: Date): Promise<string[]> {
  const result = await db.execute(sql`
    delete from blob_variants v
    where v.created_at < ${before.toISOString()}
      and not exists (select 1 from site_files sf where sf.sha256 = v.sha256)
      and not exists (select 1 from deployment_files df where df.sha256 = v.sha256)
      and not exists (select 1 from profiles p where p.avatar_sha256 = v.sha256)
    returning variant_sha256`);
  return rowsOf<{ variant_sha256: string | null }>(result)
    .map((r) => r.variant_sha256)
    .filter((s): s is string => s !== null);
}
