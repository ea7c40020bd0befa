// Pays the database set-up cost once per run: one migrated PGlite directory that every test
// copies, and one migrated PostgreSQL template database that every test clones. The PostgreSQL
// databases this run creates are dropped at the end.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../db/client";

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplateDir: string;
    postgresAdminUrl: string;
    postgresTemplate: string;
    runId: string;
  }
}

export const POSTGRES_ADMIN_URL = process.env.BERTH_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

async function dropRunDatabases(admin: pg.Client, prefix: string): Promise<void> {
  const { rows } = await admin.query<{ datname: string }>("select datname from pg_database where datname like $1", [`${prefix}%`]);
  for (const { datname } of rows) {
    await admin.query(`drop database if exists "${datname}" with (force)`);
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // The edge's native addon, as `npm run build` makes it, so the tests take the path Berth takes.
  // Without a C compiler it says why and the edge's native tests fail; the rest still run.
  try {
    execFileSync(process.execPath, [path.join(import.meta.dirname, "../../scripts/build-native.mjs")], { stdio: "inherit" });
  } catch {
    // Already explained on stderr.
  }
  const runId = `berth_test_${process.pid}_${Date.now().toString(36)}`;
  const tmp = mkdtempSync(path.join(os.tmpdir(), "berth-test-"));

  const pgliteTemplateDir = path.join(tmp, "pglite-template");
  const embedded = await openDatabase({ pgliteDir: pgliteTemplateDir });
  await embedded.migrate();
  await embedded.close();

  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect().catch((error: Error) => {
    throw new Error(`The API tests need PostgreSQL at ${POSTGRES_ADMIN_URL} (set BERTH_TEST_POSTGRES_URL): ${error.message}`);
  });
  const template = `${runId}_template`;
  await admin.query(`create database "${template}"`);
  const templateUrl = new URL(POSTGRES_ADMIN_URL);
  templateUrl.pathname = `/${template}`;
  const server = await openDatabase({ url: templateUrl.toString() });
  await server.migrate();
  await server.close();

  project.provide("pgliteTemplateDir", pgliteTemplateDir);
  project.provide("postgresAdminUrl", POSTGRES_ADMIN_URL);
  project.provide("postgresTemplate", template);
  project.provide("runId", runId);

  return async () => {
    await dropRunDatabases(admin, runId);
    await admin.end();
    rmSync(tmp, { recursive: true, force: true });
  };
}
