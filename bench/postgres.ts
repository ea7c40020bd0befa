// A fresh PostgreSQL database per bench run, on the server the tests use (trust auth by default),
// and dropped afterwards: a bench never measures, or leaves behind, anybody else's rows.
import { createScratchDatabase, scratchName, type ScratchDatabase } from "../server/test/scratchDatabase";
import { BenchError } from "./support";

/** The maintenance database to connect to; the bench's own database is created next to it. */
export const ADMIN_URL = process.env.BERTH_BENCH_POSTGRES_URL ?? process.env.BERTH_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export async function createBenchDatabase(prefix: string): Promise<ScratchDatabase> {
  try {
    return await createScratchDatabase(scratchName(prefix), { adminUrl: ADMIN_URL });
  } catch (error) {
    throw new BenchError(`cannot create a database on PostgreSQL at ${ADMIN_URL} (set BERTH_BENCH_POSTGRES_URL): ${String(error)}`);
  }
}
