// The quota's figure as Berth computed it before it was stored: the union of every blob a user's
// working trees and deployments refer to, on each call. Tests keep it as the oracle that the
// stored figure (users.storage_used, user_blobs) is checked against.
import { sql } from "drizzle-orm";
import type { Executor } from "../db/client";
import { rowsOf } from "../db/rows";

export async function storageUsedByUnion(db: Executor, userId: string): Promise<number> {
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

/**
 * Everything stored that disagrees with the rows, as readable lines (empty when all is right):
 * each user's storage_used against the oracle, and the user_blobs rows against what is referred to.
 */
export async function storageMismatches(db: Executor): Promise<string[]> {
  const problems: string[] = [];
  const users = rowsOf<{ id: string; stored: string | number }>(await db.execute(sql`select id, storage_used as stored from users order by id`));
  for (const user of users) {
    const expected = await storageUsedByUnion(db, user.id);
    if (Number(user.stored) !== expected) problems.push(`user ${user.id}: stored ${user.stored}, union ${expected}`);
  }
  const rows = rowsOf<{ user_id: string; sha256: string; stored: boolean; referenced: boolean }>(
    await db.execute(sql`
      with referenced as (
        select distinct user_id, sha256 from (
          select s.user_id, sf.sha256 from site_files sf join sites s on s.id = sf.site_id where sf.sha256 is not null
          union all
          select s.user_id, df.sha256 from deployment_files df join deployments d on d.id = df.deployment_id join sites s on s.id = d.site_id
        ) r
      )
      select coalesce(b.user_id, c.user_id) as user_id, coalesce(b.sha256, c.sha256) as sha256,
             b.user_id is not null as stored, c.user_id is not null as referenced
      from user_blobs b full join referenced c on c.user_id = b.user_id and c.sha256 = b.sha256
      where b.user_id is null or c.user_id is null`),
  );
  for (const r of rows)
    problems.push(
      `user_blobs ${r.user_id} ${r.sha256.slice(0, 12)}: ${r.stored ? "a row with nothing referring to it" : "referred to without a row"}`,
    );
  return problems;
}
