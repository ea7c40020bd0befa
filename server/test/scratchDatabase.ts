// Throw-away PostgreSQL databases on the server the tests use (BERTH_TEST_POSTGRES_URL): created
// next to the maintenance database, dropped with whatever connections are still open.
import pg from "pg";

export const ADMIN_URL = process.env.BERTH_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export async function postgresReachable(adminUrl = ADMIN_URL): Promise<boolean> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

export interface ScratchDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/** A new database `name` (a copy of `template` when given); `drop` removes it. */
export async function createScratchDatabase(name: string, options: { adminUrl?: string; template?: string } = {}): Promise<ScratchDatabase> {
  const adminUrl = options.adminUrl ?? ADMIN_URL;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database "${name}"${options.template ? ` template "${options.template}"` : ""}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}

/** A database name no other run or process picks: `prefix`, this process and the time. */
export const scratchName = (prefix: string) => `${prefix}_${process.pid}_${Date.now().toString(36)}`;
