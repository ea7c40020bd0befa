// The embedded database's autovacuum, run by the worker (jobs/worker.ts): the tables whose
// statistics are stale are analyzed, and those with many dead rows vacuumed, one at a time.
// PostgreSQL's server does this itself, so there it is left alone.
import type { AppContext } from "../context";
import { databaseActivity } from "../db/client";
import { tablesDueForUpkeep, upkeepTable } from "../db/repositories/upkeep";

/** Returns the tables it analyzed or vacuumed. */
export async function upkeepEmbeddedDatabase(ctx: Pick<AppContext, "db" | "log">): Promise<string[]> {
  if (databaseActivity(ctx.db)?.kind !== "pglite") return [];
  const due = await tablesDueForUpkeep(ctx.db);
  for (const table of due) {
    const started = performance.now();
    await upkeepTable(ctx.db, table);
    ctx.log.debug({ table: table.table, vacuum: table.vacuum, ms: Math.round(performance.now() - started) }, "database upkeep");
  }
  return due.map((t) => t.table);
}
