// The quota's figure as Berth computed it before it was stored: the union of every blob a user's
// working trees and deployments refer to, on each call. Tests keep it as the oracle that the
// stored figure (users.storage_used, user_blobs) is checked against.
import { sql } from "drizzle-orm";
import { rowsOf, type Executor } from "../db/client";

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
 * each user's storage_used against the oracle, and every user_blobs row against a recount.
 */
export async function storageMismatches(db: Executor): Promise<string[]> {
  const problems: string[] = [];
  const users = rowsOf<{ id: string; stored: string | number }>(await db.execute(sql`select id, storage_used as stored from users order by id`));
  for (const user of users) {
    const expected = await storageUsedByUnion(db, user.id);
    if (Number(user.stored) !== expected) problems.push(`user ${user.id}: stored ${user.stored}, union ${expected}`);
  }
  const refs = rowsOf<{ user_id: string; sha256: string; stored: number | null; counted: number | null }>(
    await db.execute(sql`
      with counted as (
        select user_id, sha256, count(*)::int as refs from (
          select s.user_id, sf.sha256 from site_files sf join sites s on s.id = sf.site_id where sf.sha256 is not null
          union all
          select s.user_id, df.sha256 from deployment_files df join deployments d on d.id = df.deployment_id join sites s on s.id = d.site_id
        ) r group by user_id, sha256
      )
      select coalesce(b.user_id, c.user_id) as user_id, coalesce(b.sha256, c.sha256) as sha256, b.refs as stored, c.refs as counted
      from user_blobs b full join counted c on c.user_id = b.user_id and c.sha256 = b.sha256
      where b.refs is distinct from c.refs`),
  );
  for (const r of refs)
    problems.push(`user_blobs ${r.user_id} ${r.sha256.slice(0, 12)}: stored ${r.stored ?? "none"}, counted ${r.counted ?? "none"}`);
  return problems;
}
