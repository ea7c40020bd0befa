// The backup and restore commands on PostgreSQL, where the CLI makes the snapshot itself through
// DATABASE_URL while the server runs (PGlite's path through the running server's socket is in
// e2e/backup.e2e.test.ts).
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createScratchDatabase } from "../test/scratchDatabase";
import { openDatabase } from "../db/client";
import { getTestServer, TEST_APP_URL, type TestServer } from "../test/support";
import { signedInClient } from "../test/factories";
import { createSiteWith, hostOf, htmlFile } from "../test/sites";
import { runDailyBackup } from "../backup/daily";
import { runBackupCli } from "./backup";

const SECRET = "test-secret-test-secret-test-secret-0123";

async function cli(env: Record<string, string>, ...argv: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await runBackupCli(argv, { env, stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), socketWaitMs: 300 });
  return { code, stdout, stderr };
}

/** A PostgreSQL database of this run whose URL the CLI is given (createTestDatabase hides it). */
const database = (label: string, template?: string) =>
  createScratchDatabase(`${inject("runId")}_bkcli_${label}_${process.pid}`, {
    adminUrl: inject("postgresAdminUrl"),
    ...(template ? { template } : {}),
  });

describe("berth backup and restore with PostgreSQL", () => {
  let server: TestServer;
  let source: Awaited<ReturnType<typeof database>>;
  let tmp: string;
  let env: Record<string, string>;
  let host: string;

  beforeAll(async () => {
    tmp = mkdtempSync(path.join(os.tmpdir(), "berth-backup-cli-"));
    source = await database("source", inject("postgresTemplate"));
    const opened = await openDatabase({ url: source.url });
    server = await getTestServer("postgres", { database: { ...opened, destroy: () => opened.close() } });
    const { client } = await signedInClient(server);
    host = hostOf((await createSiteWith(client, htmlFile("<h1>kept</h1>"))).url);
    env = { BERTH_DATA_DIR: server.ctx.env.dataDir, BERTH_APP_URL: TEST_APP_URL, BERTH_SECRET: SECRET, DATABASE_URL: source.url };
  });

  afterAll(async () => {
    await server.close();
    await source.drop();
    rmSync(tmp, { recursive: true, force: true });
  });

  it("backs up while the server runs, and restores into an empty database and a new data directory", async () => {
    const file = path.join(tmp, "pg.tar.gz");
    const backup = await cli(env, "backup", file);
    expect(backup).toMatchObject({ code: 0, stderr: "" });
    expect(backup.stdout).toMatch(/database {2}PostgreSQL, as of/);
    expect(backup.stdout).toMatch(/blobs {5}1 \(13 Bytes\)/);
    // PostgreSQL needs no lock: the server's data directory is left as it was.
    expect(existsSync(path.join(env.BERTH_DATA_DIR!, "berth.lock"))).toBe(false);

    const target = await database("target");
    try {
      const dataDir = path.join(tmp, "restored");
      const restore = await cli(
        { ...env, DATABASE_URL: target.url, BERTH_SECRET: "another-secret-another-secret-another-0" },
        "restore",
        file,
        "--data-dir",
        dataDir,
      );
      expect(restore).toMatchObject({ code: 0, stderr: "" });
      expect(restore.stdout).toMatch(/database {2}PostgreSQL at DATABASE_URL\n/);
      expect(restore.stdout).toMatch(/Warning: BERTH_SECRET is set to another secret than the backup's/);
      expect(readFileSync(path.join(dataDir, "secret"), "utf8")).toBe(`${SECRET}\n`);

      const restored = await openDatabase({ url: target.url });
      const revived = await getTestServer("postgres", { database: { ...restored, destroy: () => restored.close() }, dataDir });
      try {
        expect((await revived.edge.get(host, "/")).text).toBe("<h1>kept</h1>");
      } finally {
        await revived.close();
      }
    } finally {
      await target.drop();
    }
  });

  it("restores a daily backup, reading its blobs from the shared folder beside it", { timeout: 120_000 }, async () => {
    const file = await runDailyBackup(server.ctx, new Date("2026-05-02T03:00:00Z"));
    const target = await database("daily");
    try {
      const dataDir = path.join(tmp, "restored-daily");
      const restore = await cli({ ...env, DATABASE_URL: target.url }, "restore", file!, "--data-dir", dataDir);
      expect(restore).toMatchObject({ code: 0, stderr: "" });
      expect(restore.stdout).toContain(`blobs     1 (13 Bytes) in ${dataDir}/blobs, from ${path.join(env.BERTH_DATA_DIR!, "backups", "blobs")}\n`);
      const restored = await openDatabase({ url: target.url });
      const revived = await getTestServer("postgres", { database: { ...restored, destroy: () => restored.close() }, dataDir });
      try {
        expect((await revived.edge.get(host, "/")).text).toBe("<h1>kept</h1>");
      } finally {
        await revived.close();
      }
    } finally {
      await target.drop();
    }
  });

  it("refuses to back up without the server's secret, and says how to give it", async () => {
    const { BERTH_SECRET: _, ...withoutSecret } = env;
    const run = await cli(withoutSecret, "backup", path.join(tmp, "no-secret.tar.gz"));
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/There is no server secret to back up: set BERTH_SECRET/);
    expect(existsSync(path.join(tmp, "no-secret.tar.gz"))).toBe(false);
  });

  it("answers usage mistakes with exit code 2 and a bad archive with exit code 1", async () => {
    expect((await cli(env, "backup")).code).toBe(2);
    const help = await cli(env, "backup", "--help");
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/restore <file> \[--data-dir <dir>\]/);
    const missing = await cli(env, "restore", path.join(tmp, "nothing.tar.gz"), "--data-dir", path.join(tmp, "x"));
    expect(missing).toMatchObject({ code: 1, stderr: expect.stringMatching(/^Error: There is no file .*nothing\.tar\.gz/) });
  });
});
