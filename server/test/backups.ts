// What the backup tests compare: every row of every table, and the blobs of a data directory.
import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { rowsOf } from "../db/rows";
import { createFsBlobStore } from "../storage/fs";

/** Every row of every table of Berth's schema, as text, in a stable order. */
export async function everyRow(db: Db): Promise<Record<string, string[]>> {
  const tables = rowsOf<{ name: string }>(
    await db.execute(
      sql`select relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and relkind = 'r' order by relname`,
    ),
  ).map((r) => r.name);
  const out: Record<string, string[]> = {};
  for (const table of tables) {
    out[table] = rowsOf<{ row: string }>(await db.execute(sql.raw(`select row_to_json(t)::text as row from "${table}" t order by 1`))).map(
      (r) => r.row,
    );
  }
  return out;
}

/** The SHA-256 of every blob in a local blob store's directory, in order. */
export async function listBlobs(dir: string): Promise<string[]> {
  const names: string[] = [];
  for await (const blob of createFsBlobStore(dir).list()) names.push(blob.sha256);
  return names;
}
