import { sql } from "drizzle-orm";
import { rowsOf, type Executor } from "../client";

/**
 * Bytes a user stores: every distinct blob referenced by their sites' current files or by their
 * kept deployments. A blob shared by ten versions counts once, which is what it costs.
 */
export async function storageUsedByUser(db: Executor, userId: string): Promise<number> {
  const result = await db.execute(sql`
    select coalesce(sum(size), 0)::bigint as used from (
      select sf.sha256, sf.file_size as size
        from site_files sf join sites s on s.id = sf.site_id
        where s.user_id = ${userId} and sf.sha256 is not null
      union
      select df.sha256, df.size
        from deployment_files df join deployments d on d.id = df.deployment_id join sites s on s.id = d.site_id
        where s.user_id = ${userId}
    ) as referenced`);
  return Number(rowsOf<{ used: string | number }>(result)[0]?.used ?? 0);
}

/** Serialises quota checks of one user for the rest of the transaction. */
export async function lockUserQuota(tx: Executor, userId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${"quota:" + userId}))`);
}
