// What "changes nothing" means in the security tests: every row of every table (read from the
// catalogue, so a new table is covered without a word here) and the blob store's listing, or the
// part of them that belongs to one user.
import { sql } from "drizzle-orm";
import { rowsOf } from "../../db/rows";
import type { TestServer } from "../support";

/** Table name → its rows as JSON, in a stable order; `blob store` → the stored hashes. */
export type Snapshot = Record<string, string>;

async function tablesWithColumns(server: TestServer): Promise<Map<string, Set<string>>> {
  const rows = rowsOf<{ table_name: string; column_name: string }>(
    await server.ctx.db.execute(sql`
      select table_name, column_name from information_schema.columns
      where table_schema = 'public' and table_name not like '\\_\\_%' escape '\\'
      order by table_name, ordinal_position`),
  );
  const tables = new Map<string, Set<string>>();
  for (const row of rows) {
    const columns = tables.get(row.table_name) ?? new Set<string>();
    columns.add(row.column_name);
    tables.set(row.table_name, columns);
  }
  return tables;
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * How a table's rows are tied to a user, by column. Tables tied by none of these (blobs,
 * verifications, rate limits, contact messages…) belong to nobody in particular.
 */
function ownerFilter(table: string, columns: Set<string>, user: string): string | undefined {
  const sites = `(select id from sites where user_id = ${user})`;
  const conditions: string[] = [];
  if (table === "users" || table === "profiles") conditions.push(`id = ${user}`);
  if (columns.has("user_id")) conditions.push(`user_id = ${user}`);
  if (columns.has("reserved_by")) conditions.push(`reserved_by = ${user}`);
  if (columns.has("site_id")) conditions.push(`site_id in ${sites}`);
  if (columns.has("assigned_site_id")) conditions.push(`assigned_site_id in ${sites}`);
  if (columns.has("deployment_id")) conditions.push(`deployment_id in (select id from deployments where site_id in ${sites})`);
  if (columns.has("deploy_id")) conditions.push(`deploy_id in (select id from deploys where site_id in ${sites})`);
  if (columns.has("link_id")) conditions.push(`link_id in (select id from share_links where user_id = ${user})`);
  if (columns.has("endpoint_id")) conditions.push(`endpoint_id in (select id from webhook_endpoints where user_id = ${user})`);
  return conditions.length === 0 ? undefined : conditions.join(" or ");
}

async function storedBlobs(server: TestServer): Promise<string[]> {
  const stored: string[] = [];
  for await (const blob of server.ctx.blobs.list()) stored.push(blob.sha256);
  return stored.sort();
}

/** Every row of every table, and every blob. */
export async function snapshot(server: TestServer): Promise<Snapshot> {
  return collect(server, undefined);
}

/**
 * The rows of one user (their account, profile, sessions, sites and everything under them), and
 * the blobs those rows refer to, each marked as present in the store or not.
 */
export async function snapshotOfUser(server: TestServer, userId: string): Promise<Snapshot> {
  return collect(server, userId);
}

async function collect(server: TestServer, userId: string | undefined): Promise<Snapshot> {
  // The notices earlier calls set off are written after their answers: count them as those calls'.
  await server.notices.settled();
  const tables = await tablesWithColumns(server);
  const user = userId === undefined ? "" : `'${userId.replace(/'/g, "''")}'`;
  const parts: string[] = [];
  for (const [table, columns] of tables) {
    let where = "";
    if (userId !== undefined) {
      const filter = ownerFilter(table, columns, user);
      if (!filter) continue;
      where = `where ${filter}`;
    }
    parts.push(`'${table}', (select coalesce(json_agg(t order by t::text), '[]'::json) from ${quote(table)} t ${where})`);
  }
  const result: Snapshot = {};
  // json_build_object takes at most 100 arguments: 50 tables a query.
  for (let start = 0; start < parts.length; start += 50) {
    const query = `select json_build_object(${parts.slice(start, start + 50).join(", ")}) as snapshot`;
    const [row] = rowsOf<{ snapshot: Record<string, unknown> }>(await server.ctx.db.execute(sql.raw(query)));
    for (const [table, rows] of Object.entries(row!.snapshot)) result[table] = JSON.stringify(rows);
  }
  const stored = await storedBlobs(server);
  if (userId === undefined) {
    result["blob store"] = stored.join(",");
  } else {
    const referenced = rowsOf<{ sha256: string }>(
      await server.ctx.db.execute(sql`
        select sha256 from site_files where sha256 is not null and site_id in (select id from sites where user_id = ${userId})
        union select sha256 from deployment_files where deployment_id in (select d.id from deployments d join sites s on s.id = d.site_id where s.user_id = ${userId})
        union select avatar_sha256 from profiles where id = ${userId} and avatar_sha256 is not null
        order by 1`),
    ).map((r) => r.sha256);
    const present = new Set(stored);
    result["blob store"] = referenced.map((sha) => `${sha}:${present.has(sha) ? "stored" : "MISSING"}`).join(",");
  }
  return result;
}
