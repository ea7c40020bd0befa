// What the blob store holds, from the blobs table (every stored blob, variants included), beside
// the users' quota figures.
import { sql } from "drizzle-orm";
import type { Executor } from "../client";
import { rowsOf } from "../rows";

export interface DiskUsage {
  diskBytes: number;
  variantBytes: number;
  quotaBytes: number;
}

/**
 * Bytes of every blob, of the blobs that are compressed forms of others, and the sum of every
 * user's storage_used. A blob that is both a site file and someone's compressed form (an uploaded
 * .gz identical to one) counts as a variant.
 */
export async function getDiskUsage(db: Executor): Promise<DiskUsage> {
  const result = await db.execute(sql`
    select
      (select coalesce(sum(b.size), 0) from blobs b) as disk_bytes,
      (select coalesce(sum(b.size), 0) from blobs b
        where exists (select 1 from blob_variants v where v.variant_sha256 = b.sha256)) as variant_bytes,
      (select coalesce(sum(u.storage_used), 0) from users u) as quota_bytes`);
  const row = rowsOf<{ disk_bytes: string | number; variant_bytes: string | number; quota_bytes: string | number }>(result)[0];
  return {
    diskBytes: Number(row?.disk_bytes ?? 0),
    variantBytes: Number(row?.variant_bytes ?? 0),
    quotaBytes: Number(row?.quota_bytes ?? 0),
  };
}
