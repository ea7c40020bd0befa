// Backups of an instance whose blobs live in a bucket (s3rver on a loopback port): the archive
// takes the blobs from the bucket, and a restore puts them into the configured bucket.
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { CreateBucketCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../db/client";
import { loadEnv } from "../env";
import { getTestServer, type TestServer } from "../test/support";
import { signedInClient } from "../test/factories";
import { createSiteWith, hostOf, zipOf } from "../test/sites";
import { writeBackup, writeBackupFile } from "./createBackup";
import { BACKUP_DIR, runDailyBackup } from "./daily";
import { blobOfPart } from "./manifest";
import { restoreBackup } from "./restoreBackup";

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = "true";

const BUCKET = "berth-backup-test";
const SECRET = "test-secret-test-secret-test-secret-0123";

describe("backups with blobs in S3", () => {
  let s3: S3rver;
  let tmp: string;
  let bucketEnv: Record<string, string>;
  let admin: S3Client;
  let server: TestServer;

  const keysUnder = async (prefix: string) =>
    ((await admin.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }))).Contents ?? []).map((o) => o.Key!.slice(prefix.length)).sort();

  beforeAll(async () => {
    tmp = mkdtempSync(path.join(os.tmpdir(), "berth-backup-s3-"));
    s3 = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory: path.join(tmp, "s3rver") });
    const { port } = await s3.run();
    bucketEnv = {
      BERTH_S3_BUCKET: BUCKET,
      BERTH_S3_ENDPOINT: `http://127.0.0.1:${port}`,
      AWS_ACCESS_KEY_ID: "S3RVER",
      AWS_SECRET_ACCESS_KEY: "S3RVER",
    };
    admin = new S3Client({
      region: "us-east-1",
      endpoint: bucketEnv.BERTH_S3_ENDPOINT,
      forcePathStyle: true,
      credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    });
    await admin.send(new CreateBucketCommand({ Bucket: BUCKET }));
    server = await getTestServer("pglite", { env: { ...bucketEnv, BERTH_S3_PREFIX: "live/" } });
  });

  afterAll(async () => {
    await server?.close();
    admin?.destroy();
    await s3?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it("copies the bucket's blobs into the archive and restores them into the configured bucket", async () => {
    const { client } = await signedInClient(server);
    const site = await createSiteWith(client, {
      name: "site.zip",
      type: "application/zip",
      content: await zipOf([
        { name: "index.html", data: "<h1>from the bucket</h1>" },
        { name: "a.txt", data: "a" },
      ]),
    });
    const file = path.join(tmp, "s3.tar.gz");
    const manifest = await writeBackupFile(file, (out) => writeBackup({ db: server.ctx.db, blobs: server.ctx.blobs, secret: SECRET }, out));
    const shas = manifest.parts
      .map((p) => blobOfPart(p.name))
      .filter((s): s is string => s !== undefined)
      .sort();
    expect(shas).toEqual(await keysUnder("live/blobs/"));

    const dataDir = path.join(tmp, "restored");
    const env = loadEnv({ BERTH_DATA_DIR: dataDir, ...bucketEnv, BERTH_S3_PREFIX: "restored/" }, []);
    expect((await restoreBackup(file, env)).target).toEqual({ database: "pglite", blobs: "s3" });
    expect(await keysUnder("restored/blobs/")).toEqual(shas);
    // The bytes went to the bucket, not into the data directory.
    expect(readdirSync(dataDir).sort()).toEqual(["db", "secret"]);

    const restored = await openDatabase({ pgliteDir: path.join(dataDir, "db") });
    const revived = await getTestServer("pglite", {
      database: { ...restored, destroy: () => restored.close() },
      dataDir,
      env: { ...bucketEnv, BERTH_S3_PREFIX: "restored/" },
    });
    try {
      expect((await revived.edge.get(hostOf(site.url), "/")).text).toBe("<h1>from the bucket</h1>");
    } finally {
      await revived.close();
    }
  });

  // Two real daily backups and a restore: more than the default 30 s on a busy machine.
  it("copies the bucket's blobs into the daily backups' shared folder, once, and restores them from there", { timeout: 180_000 }, async () => {
    const { client } = await signedInClient(server);
    const site = await createSiteWith(client, { name: "index.html", type: "text/html", content: "<h1>daily from the bucket</h1>" });
    const file = await runDailyBackup(server.ctx, new Date("2026-06-01T03:00:00Z"));
    const shared = path.join(server.ctx.env.dataDir, BACKUP_DIR, "blobs");
    const copied = () => readdirSync(shared, { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && /^[0-9a-f]{64}$/.test(e.name));
    // Every blob of the bucket, copied down (a bucket has no files to link).
    expect(
      copied()
        .map((e) => e.name)
        .sort(),
    ).toEqual(await keysUnder("live/blobs/"));
    // The next day copies nothing again: the same files, not new ones under the same names.
    const inodes = () => copied().map((e) => [e.name, statSync(path.join(e.parentPath, e.name)).ino]);
    const first = inodes();
    await runDailyBackup(server.ctx, new Date("2026-06-02T03:00:00Z"));
    expect(inodes()).toEqual(first);

    const dataDir = path.join(tmp, "restored-daily");
    const env = loadEnv({ BERTH_DATA_DIR: dataDir, ...bucketEnv, BERTH_S3_PREFIX: "daily/" }, []);
    await restoreBackup(file!, env);
    expect(await keysUnder("daily/blobs/")).toEqual(await keysUnder("live/blobs/"));
    const restored = await openDatabase({ pgliteDir: path.join(dataDir, "db") });
    const revived = await getTestServer("pglite", {
      database: { ...restored, destroy: () => restored.close() },
      dataDir,
      env: { ...bucketEnv, BERTH_S3_PREFIX: "daily/" },
    });
    try {
      expect((await revived.edge.get(hostOf(site.url), "/")).text).toBe("<h1>daily from the bucket</h1>");
    } finally {
      await revived.close();
    }
  });
});
