// The database of an edge worker: a drizzle instance whose every statement is run by the main
// thread, which alone holds the connection (PGlite cannot be opened twice; a pg pool per thread
// would multiply connections). The edge reads the database only on a cache miss and writes one
// statement at a time (lookups, a share link's open, a rate-limit count, analytics batches, the
// day's salt), so the proxy needs no transactions, which drizzle's pg-proxy driver does not have.
//
// The main thread runs the SQL through its own drizzle session exactly as that driver would for
// the same call (runProxiedQuery): rows as arrays for "all" (the query builder maps them to
// objects by its column list, Date and jsonb included, as for any driver) and the driver's raw
// rows for "execute" (db.execute(sql…), read with rowsOf).
import { drizzle } from "drizzle-orm/pg-proxy";
import type { PgSession } from "drizzle-orm/pg-core";
import * as schema from "../../db/schema";
import type { Db } from "../../db/client";
import type { QueryError, QueryMethod } from "./protocol";

interface Pending {
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
}

export interface ProxiedDb {
  db: Db;
  /** The main thread's answer to query `id`. */
  settle(id: number, result: unknown, error: QueryError | undefined): void;
}

export function proxiedDb(send: (id: number, sql: string, params: unknown[], method: QueryMethod) => void): ProxiedDb {
  const pending = new Map<number, Pending>();
  let last = 0;
  const db = drizzle(
    async (sql, params, method) => {
      const id = ++last;
      const asked: QueryMethod = method === "all" ? "all" : "execute";
      const result = await new Promise<unknown>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        send(id, sql, params, asked);
      });
      // pg-proxy hands "execute"'s `rows` back as the result itself: give it the driver's result
      // object, whose `rows` rowsOf reads, as with PGlite and node-postgres.
      return asked === "all" ? { rows: (result as { rows: unknown[] }).rows } : { rows: result as unknown[] };
    },
    { schema },
  );
  return {
    db: db,
    settle(id, result, error) {
      const waiting = pending.get(id);
      if (waiting === undefined) return;
      pending.delete(id);
      if (error === undefined) return waiting.resolve(result);
      const failure = new Error(error.message) as Error & { code?: string };
      if (error.code !== undefined) failure.code = error.code;
      waiting.reject(failure);
    },
  };
}

/** Runs a worker's statement on the real database; the result crosses to the worker by structured clone. */
export async function runProxiedQuery(db: Db, sql: string, params: unknown[], method: QueryMethod): Promise<unknown> {
  const session = (db as unknown as { session: PgSession }).session;
  // A result mapper that keeps the rows as they are makes both drivers answer arrays, unmapped.
  const keepRows = (rows: unknown[]) => rows;
  const prepared = session.prepareQuery({ sql, params }, undefined, undefined, method === "all", method === "all" ? keepRows : undefined);
  const result = await prepared.execute();
  if (method === "all") return { rows: result };
  // The driver's result object holds parsers (functions) that cannot cross: rows and count only.
  const raw = result as { rows: unknown[]; rowCount?: number | null; affectedRows?: number };
  return { rows: raw.rows, rowCount: raw.rowCount ?? raw.affectedRows ?? null };
}
