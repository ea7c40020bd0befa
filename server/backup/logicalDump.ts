// A logical dump of Berth's database through the driver Berth already has, for PostgreSQL servers
// (and for moving between PostgreSQL and PGlite). pg_dump is not used: it is often not installed
// where Berth runs, and it refuses a server newer than itself.
//
// Exporting runs inside the caller's transaction; in REPEATABLE READ that transaction is one
// consistent snapshot of every table, and it never blocks writers. Rows leave the database as
// row_to_json text and go back in through json_populate_recordset, so every value (bigints past
// 2^53, microsecond timestamps, jsonb, bytea) makes the round trip inside PostgreSQL, never
// through JavaScript numbers or dates.
//
// The dump is newline-delimited JSON. Rows are objects; everything else is an array:
//   ["berth-logical-dump", 1, { "migrations": [{ "hash", "createdAt" }] }]
//   ["table", "public", "users", ["id", "name", …]]   then one line per row: {"id": …}
//   ["sequence", "public", "analytics_events_id_seq", 42]
//   ["end", <tables>, <rows>]
import { StringDecoder } from "node:string_decoder";
import { sql } from "drizzle-orm";
import type { MigrationMeta } from "drizzle-orm/migrator";
import type { Executor } from "../db/client";
import { rowsOf } from "../db/rows";
import type { AppliedMigration } from "./manifest";

const FORMAT = "berth-logical-dump";
const VERSION = 1;
/** Berth's tables live in public; drizzle's bookkeeping in drizzle (rebuilt from the header). */
const SCHEMA = "public";
const FETCH_ROWS = 1000;
const INSERT_ROWS = 1000;
const INSERT_BYTES = 4 * 1024 * 1024;

export class DumpFormatError extends Error {}

/** The backup needs migrations this Berth does not have, or its history differs from this Berth's. */
export class MigrationMismatchError extends Error {}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
const qualified = (schema: string, table: string) => `${ident(schema)}.${ident(table)}`;

/** The drizzle migrations the database has applied, oldest first. */
export async function appliedMigrations(db: Executor): Promise<AppliedMigration[]> {
  const exists = rowsOf<{ present: boolean }>(await db.execute(sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`));
  if (!exists[0]?.present) return [];
  const rows = rowsOf<{ hash: string; created_at: string | number }>(
    await db.execute(sql`select hash, created_at from drizzle.__drizzle_migrations order by created_at, id`),
  );
  return rows.map((r) => ({ hash: r.hash, createdAt: Number(r.created_at) }));
}

/**
 * The backup's migrations must be the first ones of this Berth's, hash for hash: restoring then
 * rebuilds the backup's schema exactly, and the server applies the newer ones when it starts.
 */
export function checkMigrations(backup: readonly AppliedMigration[], local: readonly MigrationMeta[]): void {
  if (backup.length > local.length) {
    throw new MigrationMismatchError(
      `The backup's database has ${backup.length} migrations and this Berth knows ${local.length}: restore it with the Berth version that made it, or a newer one.`,
    );
  }
  backup.forEach((migration, i) => {
    const mine = local[i]!;
    if (mine.hash !== migration.hash || mine.folderMillis !== migration.createdAt) {
      throw new MigrationMismatchError(
        `The backup's migration ${i + 1} is not this Berth's migration ${i + 1}: restore it with the Berth version that made it.`,
      );
    }
  });
}

async function tablesOf(db: Executor): Promise<string[]> {
  const rows = rowsOf<{ name: string }>(
    await db.execute(sql`
      select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = ${SCHEMA} and c.relkind in ('r', 'p') and not c.relispartition
      order by c.relname`),
  );
  return rows.map((r) => r.name);
}

/** The columns a row is written to: generated ones are computed, never inserted. */
async function columnsOf(db: Executor, table: string): Promise<string[]> {
  const rows = rowsOf<{ name: string }>(
    await db.execute(sql`
      select a.attname as name from pg_attribute a
      where a.attrelid = ${qualified(SCHEMA, table)}::regclass and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
      order by a.attnum`),
  );
  return rows.map((r) => r.name);
}

export interface DumpCounts {
  tables: number;
  rows: number;
}

/** Writes the dump line by line; `write` must wait while its destination is busy. */
export async function exportLogicalDump(tx: Executor, write: (line: string) => Promise<void>): Promise<DumpCounts> {
  await write(JSON.stringify([FORMAT, VERSION, { migrations: await appliedMigrations(tx) }]));
  const tables = await tablesOf(tx);
  let total = 0;
  for (const table of tables) {
    await write(JSON.stringify(["table", SCHEMA, table, await columnsOf(tx, table)]));
    await tx.execute(sql.raw(`declare berth_dump no scroll cursor for select row_to_json(t)::text as row from ${qualified(SCHEMA, table)} t`));
    for (;;) {
      const rows = rowsOf<{ row: string }>(await tx.execute(sql.raw(`fetch forward ${FETCH_ROWS} from berth_dump`)));
      for (const { row } of rows) await write(row);
      total += rows.length;
      if (rows.length < FETCH_ROWS) break;
    }
    await tx.execute(sql.raw("close berth_dump"));
  }
  // Sequences are not transactional: a value may be ahead of the snapshot, which only skips numbers.
  const sequences = rowsOf<{ name: string; last_value: string | number | null }>(
    await tx.execute(sql`select sequencename as name, last_value from pg_sequences where schemaname = ${SCHEMA} order by sequencename`),
  );
  for (const s of sequences) await write(JSON.stringify(["sequence", SCHEMA, s.name, s.last_value === null ? null : String(s.last_value)]));
  await write(JSON.stringify(["end", tables.length, total]));
  return { tables: tables.length, rows: total };
}

/** Lines of UTF-8 text from chunks of bytes, split on "\n" only. */
export async function* linesOf(chunks: AsyncIterable<Buffer>): AsyncGenerator<string> {
  const decoder = new StringDecoder("utf8");
  let pending = "";
  for await (const chunk of chunks) {
    pending += decoder.write(chunk);
    let newline: number;
    while ((newline = pending.indexOf("\n")) !== -1) {
      yield pending.slice(0, newline);
      pending = pending.slice(newline + 1);
    }
  }
  pending += decoder.end();
  if (pending !== "") yield pending;
}

/** No table, view or sequence in Berth's schemas: the only database a restore writes into. */
export async function isEmptyDatabase(db: Executor): Promise<boolean> {
  const rows = rowsOf<{ count: string | number }>(
    await db.execute(sql`
      select count(*) as count from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname in (${SCHEMA}, 'drizzle')`),
  );
  return Number(rows[0]?.count ?? 0) === 0;
}

function parseMarker(line: string): unknown[] {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new DumpFormatError("The database dump has a line that is not JSON");
  }
  if (!Array.isArray(value)) throw new DumpFormatError("The database dump has a row outside any table");
  return value;
}

/**
 * Loads a dump into an empty database, inside the caller's transaction: the backup's migrations
 * build its schema, foreign keys are set aside while rows go in (sites and deployments refer to
 * each other) and put back afterwards, which checks every reference. Nothing is left behind if
 * any of it fails, because the caller's transaction rolls back.
 */
export async function importLogicalDump(tx: Executor, lines: AsyncIterable<string>, local: readonly MigrationMeta[]): Promise<DumpCounts> {
  const iterator = lines[Symbol.asyncIterator]();
  const first = await iterator.next();
  const header = first.done ? [] : parseMarker(first.value);
  if (header[0] !== FORMAT || header[1] !== VERSION) throw new DumpFormatError("The database dump is not one this Berth can read");
  const migrations = ((header[2] ?? {}) as { migrations?: AppliedMigration[] }).migrations ?? [];
  checkMigrations(migrations, local);

  for (const migration of local.slice(0, migrations.length)) {
    for (const statement of migration.sql) await tx.execute(sql.raw(statement));
  }
  // drizzle's own table, exactly as its migrator creates it, so that the server's start-up applies
  // only the migrations that came after the backup.
  await tx.execute(sql`create schema if not exists drizzle`);
  await tx.execute(sql`create table if not exists drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)`);
  for (const m of migrations) await tx.execute(sql`insert into drizzle.__drizzle_migrations (hash, created_at) values (${m.hash}, ${m.createdAt})`);

  const foreignKeys = rowsOf<{ tbl: string; name: string; def: string }>(
    await tx.execute(sql`
      select conrelid::regclass::text as tbl, conname as name, pg_get_constraintdef(oid) as def
      from pg_constraint where contype = 'f' and connamespace = ${SCHEMA}::regnamespace order by conname`),
  );
  for (const fk of foreignKeys) await tx.execute(sql.raw(`alter table ${fk.tbl} drop constraint ${ident(fk.name)}`));

  const known = new Set(await tablesOf(tx));
  // The dump holds every derived figure as it was (users.storage_used, user_blobs): the triggers
  // that keep them must not count the rows again as they come in, in whatever order.
  for (const name of known) await tx.execute(sql.raw(`alter table ${qualified(SCHEMA, name)} disable trigger user`));
  let table: { name: string; columns: string[] } | undefined;
  let batch: string[] = [];
  let batchBytes = 0;
  let tables = 0;
  let rows = 0;
  let ended = false;

  const flush = async () => {
    if (!table || batch.length === 0) return;
    const target = qualified(SCHEMA, table.name);
    const columns = table.columns.map(ident).join(", ");
    await tx.execute(
      sql`${sql.raw(`insert into ${target} (${columns}) overriding system value select ${columns} from json_populate_recordset(null::${target}, `)}${`[${batch.join(",")}]`}::json)`,
    );
    rows += batch.length;
    batch = [];
    batchBytes = 0;
  };

  for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
    const line = next.value;
    if (ended) throw new DumpFormatError("The database dump goes on after its end");
    if (line.startsWith("{")) {
      if (!table) throw new DumpFormatError("The database dump has a row outside any table");
      batch.push(line);
      batchBytes += line.length;
      if (batch.length >= INSERT_ROWS || batchBytes >= INSERT_BYTES) await flush();
      continue;
    }
    await flush();
    const marker = parseMarker(line);
    if (marker[0] === "table") {
      const [, schema, name, columns] = marker as [string, string, string, string[]];
      if (schema !== SCHEMA || !known.has(name))
        throw new DumpFormatError(`The database dump has a table ${schema}.${name} this schema does not have`);
      const expected = await columnsOf(tx, name);
      if (JSON.stringify([...columns].sort()) !== JSON.stringify([...expected].sort())) {
        throw new DumpFormatError(`The table ${name} in the dump does not have the columns the schema gives it`);
      }
      table = { name, columns };
      tables += 1;
    } else if (marker[0] === "sequence") {
      const [, schema, name, value] = marker as [string, string, string, string | null];
      if (value !== null) await tx.execute(sql`select setval(${qualified(schema, name)}, ${value}::bigint, true)`);
      table = undefined;
    } else if (marker[0] === "end") {
      if (marker[1] !== tables || marker[2] !== rows) throw new DumpFormatError("The database dump's counts do not match its contents");
      ended = true;
    } else {
      throw new DumpFormatError("The database dump has a line this Berth does not understand");
    }
  }
  if (!ended) throw new DumpFormatError("The database dump is cut short");
  for (const name of known) await tx.execute(sql.raw(`alter table ${qualified(SCHEMA, name)} enable trigger user`));
  for (const fk of foreignKeys) await tx.execute(sql.raw(`alter table ${fk.tbl} add constraint ${ident(fk.name)} ${fk.def}`));
  return { tables, rows };
}
