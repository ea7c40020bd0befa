// A fresh PostgreSQL database per bench run, on the server the tests use (trust auth by default),
// and dropped afterwards: a bench never measures, or leaves behind, anybody else's rows.
import pg from "pg";

/** The maintenance database to connect to; the bench's own database is created next to it. */
export const ADMIN_URL =
  process.env.BERTH_BENCH_POSTGRES_URL ?? process.env.BERTH_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export interface BenchDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

export async function createBenchDatabase(prefix: string): Promise<BenchDatabase> {
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(`cannot reach PostgreSQL at ${ADMIN_URL} (set BERTH_BENCH_POSTGRES_URL): ${String(error)}`);
  }
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: ADMIN_URL });
      await client.connect();
      try {
        await client.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}
