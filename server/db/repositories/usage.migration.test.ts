// Migration 0008 counts what an existing database already holds: a database migrated up to 0007
// gets rows of every kind (shared blobs, folders, deleted sites, failed deployments, a user
// without sites), then the remaining migrations, and the stored figure must equal the union query.
import { afterAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { sql } from "drizzle-orm";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { openDatabase, type Database, type Db } from "../client";
import { migrationsDir } from "../../paths";
import { DRIVERS } from "../../test/support";
import { storageMismatches } from "../../test/storageOracle";
import { storageUsedByUser } from "./usage";

/** The migrations folder as it was before 0008. */
function migrationsBefore0008(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "berth-migrations-"));
  cpSync(migrationsDir, dir, { recursive: true });
  const journalPath = path.join(dir, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: Array<{ idx: number }> };
  journal.entries = journal.entries.filter((e) => e.idx < 8);
  writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

async function databaseAt0007(driver: (typeof DRIVERS)[number], folder: string): Promise<{ database: Database; drop: () => Promise<void> }> {
  if (driver === "pglite") {
    const client = new PGlite();
    await migratePglite(drizzlePglite(client), { migrationsFolder: folder });
    return { database: await openDatabase({ pglite: client }), drop: async () => {} };
  }
  const admin = new pg.Client({ connectionString: inject("postgresAdminUrl") });
  await admin.connect();
  const name = `${inject("runId")}_backfill_${process.pid}`;
  await admin.query(`create database "${name}"`);
  const url = new URL(inject("postgresAdminUrl"));
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 1 });
  await migratePg(drizzlePg(pool), { migrationsFolder: folder });
  await pool.end();
  return {
    database: await openDatabase({ url: url.toString() }),
    drop: async () => {
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}

const S1 = "00000000-0000-4000-8000-000000000001";
const S2 = "00000000-0000-4000-8000-000000000002";
const S3 = "00000000-0000-4000-8000-000000000003";
const D1 = "00000000-0000-4000-8000-0000000000d1";
const D2 = "00000000-0000-4000-8000-0000000000d2";
const D3 = "00000000-0000-4000-8000-0000000000d3";

async function seed(db: Db): Promise<void> {
  await db.execute(
    sql`insert into users (id, name, email) values ('u1', 'One', 'one@example.com'), ('u2', 'Two', 'two@example.com'), ('u3', 'Three', 'three@example.com')`,
  );
  await db.execute(sql`
    insert into sites (id, name, user_id, subdomain, is_deleted, deleted_at) values
      (${S1}, 'a', 'u1', 'aaaaa', false, null), (${S2}, 'b', 'u1', 'bbbbb', true, now()), (${S3}, 'c', 'u2', 'ccccc', false, null)`);
  await db.execute(sql`
    insert into site_files (site_id, filename, file_path, file_size, is_folder, sha256) values
      (${S1}, 'css', 'css', 0, true, null), (${S1}, 'index.html', 'index.html', 100, false, 'h1'),
      (${S1}, 'a.css', 'css/a.css', 10, false, 'shared'), (${S1}, 'copy.css', 'css/copy.css', 10, false, 'shared'),
      (${S2}, 'index.html', 'index.html', 7, false, 'deleted-only'), (${S2}, 'a.css', 'a.css', 10, false, 'shared'),
      (${S3}, 'index.html', 'index.html', 10, false, 'shared')`);
  await db.execute(sql`
    insert into deployments (id, site_id, version, status) values (${D1}, ${S1}, 1, 'success'), (${D2}, ${S1}, 2, 'success'), (${D3}, ${S3}, 1, 'failed')`);
  await db.execute(sql`
    insert into deployment_files (deployment_id, path, sha256, size, content_type) values
      (${D1}, 'index.html', 'old', 1000, 'text/html'), (${D1}, 'css/a.css', 'shared', 10, 'text/css'),
      (${D2}, 'index.html', 'h1', 100, 'text/html'), (${D3}, 'index.html', 'failed-only', 5, 'text/html')`);
}

describe.each(DRIVERS)("migration 0008 backfill (%s)", (driver) => {
  const folder = migrationsBefore0008();
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("stores each user's existing figure, which the triggers then keep", async () => {
    const { database, drop } = await databaseAt0007(driver, folder);
    try {
      await seed(database.db);
      await database.migrate();
      const used = async () => Promise.all(["u1", "u2", "u3"].map((u) => storageUsedByUser(database.db, u)));
      expect(await used()).toEqual([100 + 10 + 7 + 1000, 10 + 5, 0]);
      expect(await storageMismatches(database.db)).toEqual([]);
      await database.db.execute(sql`delete from sites where id = ${S2}`);
      await database.db.execute(sql`delete from deployments where id = ${D1}`);
      expect(await used()).toEqual([100 + 10, 10 + 5, 0]);
      expect(await storageMismatches(database.db)).toEqual([]);
    } finally {
      await database.close();
      await drop();
    }
  });
});
