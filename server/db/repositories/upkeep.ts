// What the embedded database needs of the upkeep a PostgreSQL server does by itself. A server's
// autovacuum keeps each table's planner statistics current (ANALYZE) and makes the space of
// deleted and replaced rows reusable (VACUUM). PGlite runs no background process, so without
// this its tables are never analyzed: the planner keeps guessing a few rows per table, and picks
// plans that are quadratic once a site has a thousand files (removing an old version took 260 ms
// where 13 ms will do).
import { sql } from "drizzle-orm";
import type { Executor } from "../client";
import { rowsOf } from "../rows";

/**
 * autovacuum's default thresholds: a table is analyzed once more than 50 rows plus 10 % of it
 * changed since the last analysis, and vacuumed once more than 50 rows plus 20 % of it are dead.
 */
const ANALYZE_BASE_ROWS = 50;
const ANALYZE_SHARE = 0.1;
const VACUUM_BASE_ROWS = 50;
const VACUUM_SHARE = 0.2;

export interface TableUpkeep {
  table: string;
  vacuum: boolean;
  analyze: boolean;
}

/**
 * The tables of the public schema due for upkeep. A table that holds data and was never analyzed
 * is due too: the counters above start again from nothing when the database was not shut down
 * cleanly, and an installation from before this upkeep has never analyzed anything.
 */
export async function tablesDueForUpkeep(db: Executor): Promise<TableUpkeep[]> {
  const result = await db.execute(sql`
    select s.relname as "table",
           s.n_dead_tup > ${VACUUM_BASE_ROWS}::float8 + ${VACUUM_SHARE}::float8 * s.n_live_tup as "vacuum",
           s.n_mod_since_analyze > ${ANALYZE_BASE_ROWS}::float8 + ${ANALYZE_SHARE}::float8 * s.n_live_tup
             or (c.reltuples < 0 and pg_relation_size(c.oid) > 0) as "analyze"
    from pg_stat_user_tables s join pg_class c on c.oid = s.relid
    where s.schemaname = 'public'
    order by s.relname`);
  return rowsOf<TableUpkeep>(result).filter((t) => t.vacuum || t.analyze);
}

/** VACUUM (ANALYZE) when the table has dead rows to reclaim, ANALYZE alone otherwise. Not in a transaction. */
export async function upkeepTable(db: Executor, upkeep: TableUpkeep): Promise<void> {
  const command = upkeep.vacuum ? sql.raw("vacuum (analyze)") : sql.raw("analyze");
  await db.execute(sql`${command} ${sql.identifier(upkeep.table)}`);
}
