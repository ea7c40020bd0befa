// Opens the database: embedded PGlite in the data directory, or a PostgreSQL server when
// DATABASE_URL is set. Both are handed out as the same drizzle type, so repositories never
// know which one they talk to. Each driver is imported when a database of its kind is opened, so a
// process loads only the one it uses.
import type { PGlite } from "@electric-sql/pglite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import * as schema from "./schema";
import { migrationsDir } from "../paths";
import { loadPglite, openPrivatePglite } from "./privatePglite";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  migrate(): Promise<void>;
  close(): Promise<void>;
}

/** Closing twice (a health test, then teardown) must not throw. */
function once(fn: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => (closing ??= fn());
}

/** `buffersMb`: the embedded database's shared_buffers (BERTH_DB_BUFFERS_MB); 16 when absent. */
export type DatabaseTarget = { url: string } | { pgliteDir: string; buffersMb?: number } | { pglite: PGlite };

export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  if ("url" in target) {
    // Loaded only for a server: the embedded database's processes never need the driver.
    const [{ default: pg }, { drizzle: drizzlePg }, { migrate: migratePg }] = await Promise.all([
      import("pg"),
      import("drizzle-orm/node-postgres"),
      import("drizzle-orm/node-postgres/migrator"),
    ]);
    const pool = new pg.Pool({ connectionString: target.url, max: 10 });
    // An idle client that loses its connection must not crash the process.
    pool.on("error", () => {});
    const db = drizzlePg(pool, { schema });
    activities.set(db, () => ({ kind: "postgres", total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }));
    return {
      db: db as unknown as Db,
      kind: "postgres",
      migrate: () => migratePg(db, { migrationsFolder: migrationsDir }),
      close: once(() => pool.end()),
    };
  }
  const [{ PGlite }, { drizzle: drizzlePglite }, { migrate: migratePglite }] = await Promise.all([
    loadPglite(),
    import("drizzle-orm/pglite"),
    import("drizzle-orm/pglite/migrator"),
  ]);
  const client =
    "pglite" in target
      ? target.pglite
      : await openPrivatePglite(target.pgliteDir, {
          startParams: withSharedBuffers(PGlite.defaultStartParams, target.buffersMb ?? DEFAULT_BUFFERS_MB),
        });
  await client.waitReady;
  const counter = countInFlight(client);
  const db = drizzlePglite(client, { schema });
  activities.set(db, () => ({ kind: "pglite", inFlight: counter.count }));
  return {
    db: db as unknown as Db,
    kind: "pglite",
    migrate: () => migratePglite(db, { migrationsFolder: migrationsDir }),
    close: once(() => client.close()),
  };
}

const DEFAULT_BUFFERS_MB = 16;

/**
 * PGlite's start parameters with a smaller page cache. Its data directory says 128 MB, and
 * PostgreSQL touches all of its shared memory when it starts, so that much stays resident for the
 * process's whole life (WebAssembly memory never shrinks): 16 MB takes about 110 MB off an idle
 * server. Pages past it come from the kernel's file cache, a copy rather than a disk read.
 */
function withSharedBuffers(defaults: readonly string[], mb: number): string[] {
  return [...defaults, "-c", `shared_buffers=${mb}MB`];
}

/** How busy the database is, for the metrics: the pool's connections, or PGlite's work under way. */
export type DatabaseActivity = { kind: "postgres"; total: number; idle: number; waiting: number } | { kind: "pglite"; inFlight: number };

/** PGlite runs one statement at a time; calls made and not finished, per instance. */
const inFlight = new WeakMap<PGlite, { count: number }>();

/**
 * Counts PGlite's calls that are under way (query, exec, transaction: the ones drizzle and Berth
 * make), running or waiting for the one that runs. The methods are wrapped on the instance itself,
 * which stays a PGlite.
 */
function countInFlight(client: PGlite): { count: number } {
  const known = inFlight.get(client);
  if (known) return known;
  const counter = { count: 0 };
  inFlight.set(client, counter);
  const methods = client as unknown as Record<"query" | "exec" | "transaction", (...args: unknown[]) => Promise<unknown>>;
  for (const name of ["query", "exec", "transaction"] as const) {
    const original = methods[name].bind(client);
    methods[name] = async (...args: unknown[]) => {
      counter.count += 1;
      try {
        return await original(...args);
      } finally {
        counter.count -= 1;
      }
    };
  }
  return counter;
}

/** How each database this process opened reads its activity, by its drizzle handle. */
const activities = new WeakMap<Db, () => DatabaseActivity>();

/** The activity of the database behind a drizzle handle; undefined for one not opened here (an edge worker's proxy). */
export function databaseActivity(db: Db): DatabaseActivity | undefined {
  return activities.get(db)?.();
}

/** A transaction handle; repositories accept either it or the database. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type Executor = Db | Tx;
