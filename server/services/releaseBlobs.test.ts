// Blobs are shared by content, so a release (prune, purge, a removed picture, a refused upload)
// races uploads of the same bytes, which hold them without any row until they commit. Each test
// forces one interleaving by running the other side at the exact point between two steps: right
// after the release's transaction commits, or right after an upload has stored its bytes. The
// invariant checked every time: no row refers to bytes the store does not hold. On PGlite these
// step boundaries are the only interleavings there are (one transaction at a time); PostgreSQL
// also runs the lock's two sides truly at once.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { createHash } from "node:crypto";
import { CreateBucketCommand, S3Client } from "@aws-sdk/client-s3";
import { sql } from "drizzle-orm";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db/client";
import { rowsOf } from "../db/rows";
import type { BlobStore } from "../storage/blobStore";
import { DRIVERS, getTestServer, type TestServer } from "../test/support";
import { setPlan, signedInClient } from "../test/factories";
import { createSiteWith, hostOf, htmlFile, postMultipart } from "../test/sites";
import { FREE_PLAN } from "../plans/builtIn";
import { DELETION_GRACE_DAYS } from "../../common/sites";
import { removeAvatar, saveAvatar } from "./avatars";
import { commitStagedFiles } from "./commitFiles";
import { pruneDeployments } from "./pruneDeployments";
import { purgeDeletedSites } from "./purgeDeletedSites";
import { deleteUnreferencedBytes } from "./releaseBlobs";
import { stageUpload } from "./stageUpload";

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = "true";

const KEPT = FREE_PLAN.deploymentsKept;
/** lockBlobs' first key ("blob"), to tell its waits from other advisory locks'. */
const BLOB_LOCK_SPACE = 0x626c6f62;
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 9, 8, 7]);
const sha256 = (bytes: string | Buffer) => createHash("sha256").update(bytes).digest("hex");

let s3: S3rver;
let s3Dir: string;
let s3Env: Record<string, string>;
let runs = 0;

beforeAll(async () => {
  s3Dir = mkdtempSync(path.join(os.tmpdir(), "berth-release-s3-"));
  s3 = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory: s3Dir });
  const { port } = await s3.run();
  s3Env = {
    BERTH_S3_BUCKET: "berth-release",
    BERTH_S3_ENDPOINT: `http://127.0.0.1:${port}`,
    AWS_ACCESS_KEY_ID: "S3RVER",
    AWS_SECRET_ACCESS_KEY: "S3RVER",
  };
  const admin = new S3Client({
    region: "us-east-1",
    endpoint: s3Env.BERTH_S3_ENDPOINT,
    forcePathStyle: true,
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
  });
  await admin.send(new CreateBucketCommand({ Bucket: s3Env.BERTH_S3_BUCKET }));
  admin.destroy();
});

afterAll(async () => {
  await s3?.close();
  if (s3Dir) rmSync(s3Dir, { recursive: true, force: true });
});

const MATRIX = DRIVERS.flatMap((driver) => (["fs", "s3"] as const).map((store) => ({ driver, store })));

describe.each(MATRIX)("releasing blobs that an upload is recording ($driver, $store)", ({ driver, store }) => {
  let server: TestServer;
  const label = `${driver}/${store}`;

  beforeAll(async () => {
    server = await getTestServer(driver, { env: store === "s3" ? { ...s3Env, BERTH_S3_PREFIX: `run-${++runs}/` } : {} });
  });
  afterAll(() => server.close());

  /** The rows that refer to `sha` while the store does not hold its bytes: must always be none. */
  async function rowsWithoutBytes(sha: string): Promise<string[]> {
    if (await server.ctx.blobs.stat(sha)) return [];
    const rows = await server.ctx.db.execute(sql`
      select 'site_files ' || file_path as row from site_files where sha256 = ${sha}
      union all select 'deployment_files ' || path from deployment_files where sha256 = ${sha}
      union all select 'blob_variants ' || sha256 from blob_variants where variant_sha256 = ${sha}
      union all select 'profiles ' || id from profiles where avatar_sha256 = ${sha}`);
    return rowsOf<{ row: string }>(rows).map((r) => r.row);
  }

  /** A Free site with 11 versions of which only version 1 holds `bytes`: the next prune releases them. */
  async function siteWhereOnlyVersionOneHolds(bytes: string) {
    const { client, user } = await signedInClient(server);
    await setPlan(server, user.id, "pro");
    const site = await createSiteWith(client, htmlFile(bytes));
    for (let n = 0; n < KEPT; n++)
      expect((await postMultipart(client, `/api/sites/${site.id}/files`, {}, htmlFile("<p>later</p>"))).statusCode).toBe(201);
    await setPlan(server, user.id, "free");
    return { id: site.id, user_id: user.id, subdomain: site.subdomain };
  }

  async function otherSite() {
    const { client, user } = await signedInClient(server);
    return { client, user, site: await createSiteWith(client, htmlFile("<p>another site</p>")) };
  }

  /** The database, except that `race` runs right after the first transaction commits, before its caller goes on. */
  function afterFirstCommit(race: () => Promise<void>): Db {
    const db = server.ctx.db;
    let fired = false;
    return new Proxy(db, {
      get(target, property) {
        if (property !== "transaction") {
          const value: unknown = Reflect.get(target, property, target);
          return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
        }
        return async (...args: Parameters<Db["transaction"]>) => {
          const result: unknown = await target.transaction(...args);
          if (!fired) {
            fired = true;
            await race();
          }
          return result;
        };
      },
    });
  }

  /**
   * Until the returned function is called, the server's store runs `race` once, right after a put
   * of `sha` has stored its bytes and before the upload goes on to commit.
   */
  function afterPutOf(sha: string, race: (store: BlobStore) => Promise<void>): () => void {
    const store = server.ctx.blobs;
    let fired = false;
    server.ctx.blobs = {
      ...store,
      async put(source, options) {
        const result = await store.put(source, options);
        if (result.sha256 === sha && !fired) {
          fired = true;
          await race(store);
        }
        return result;
      },
    };
    return () => {
      server.ctx.blobs = store;
    };
  }

  it("keeps bytes that an upload recorded between the release's commit and the deletion of the bytes (prune)", async () => {
    const bytes = `<p>pruned, and uploaded again at once (${label})</p>`;
    const site = await siteWhereOnlyVersionOneHolds(bytes);
    const other = await otherSite();
    let status = 0;
    const db = afterFirstCommit(async () => {
      status = (await postMultipart(other.client, `/api/sites/${other.site.id}/files`, {}, htmlFile(bytes, "copy.html"))).statusCode;
    });

    expect(await pruneDeployments({ ...server.ctx, db }, site)).toBe(1);
    expect(status).toBe(201);
    expect(await rowsWithoutBytes(sha256(bytes))).toEqual([]);
    expect((await server.edge.get(hostOf(other.site.url), "/copy")).text).toBe(bytes);
  });

  it("keeps bytes that an upload recorded between the release's commit and the deletion of the bytes (purge)", async () => {
    const bytes = `<p>purged, and uploaded again at once (${label})</p>`;
    const { client } = await signedInClient(server);
    const doomed = await createSiteWith(client, htmlFile(bytes));
    expect((await client.delete(`/api/sites/${doomed.id}`)).statusCode).toBe(200);
    const deletedAt = Date.parse((await client.get(`/api/sites/${doomed.id}`)).json().deleted_at as string);
    const other = await otherSite();
    let status = 0;
    const db = afterFirstCommit(async () => {
      status = (await postMultipart(other.client, `/api/sites/${other.site.id}/files`, {}, htmlFile(bytes, "copy.html"))).statusCode;
    });

    expect(await purgeDeletedSites({ ...server.ctx, db }, new Date(deletedAt + DELETION_GRACE_DAYS * 86_400_000 + 1000))).toBeGreaterThanOrEqual(1);
    expect(status).toBe(201);
    expect(await rowsWithoutBytes(sha256(bytes))).toEqual([]);
    expect((await server.edge.get(hostOf(other.site.url), "/copy")).text).toBe(bytes);
  });

  it("refuses an upload whose bytes were released and deleted after it stored them, and takes them when sent again", async () => {
    const bytes = `<p>stored by an upload, then pruned (${label})</p>`;
    const site = await siteWhereOnlyVersionOneHolds(bytes);
    const other = await otherSite();
    const restore = afterPutOf(sha256(bytes), async (store) => {
      expect(await pruneDeployments({ ...server.ctx, blobs: store }, site)).toBe(1);
    });
    const refused = await postMultipart(other.client, `/api/sites/${other.site.id}/files`, {}, htmlFile(bytes, "copy.html")).finally(restore);

    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe("upload_interrupted");
    expect(await rowsWithoutBytes(sha256(bytes))).toEqual([]);
    expect((await postMultipart(other.client, `/api/sites/${other.site.id}/files`, {}, htmlFile(bytes, "copy.html"))).statusCode).toBe(201);
    expect((await server.edge.get(hostOf(other.site.url), "/copy")).text).toBe(bytes);
  });

  it("refuses an upload whose bytes were a removed picture's, deleted after it stored them", async () => {
    const picture = Buffer.concat([PNG, Buffer.from(label)]);
    const { user: owner } = await signedInClient(server);
    await saveAvatar(server.ctx, owner.id, picture);
    const other = await otherSite();
    const restore = afterPutOf(sha256(picture), async (store) => {
      expect(await removeAvatar({ ...server.ctx, blobs: store }, owner.id)).toBe(true);
    });
    const refused = await postMultipart(
      other.client,
      `/api/sites/${other.site.id}/files`,
      {},
      { name: "picture.png", content: picture, type: "image/png" },
    ).finally(restore);

    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe("upload_interrupted");
    expect(await rowsWithoutBytes(sha256(picture))).toEqual([]);
  });

  it("keeps the bytes of a refused upload that another upload of the same bytes recorded meanwhile", async () => {
    const bytes = `<p>new bytes, uploaded twice at once (${label})</p>`;
    const first = await otherSite();
    const second = await otherSite();
    const restore = afterPutOf(sha256(bytes), async () => {
      expect((await postMultipart(second.client, `/api/sites/${second.site.id}/files`, {}, htmlFile(bytes, "twin.html"))).statusCode).toBe(201);
    });
    // Into a "folder" that is a file: refused at commit, after this upload created the blob.
    const refused = await postMultipart(
      first.client,
      `/api/sites/${first.site.id}/files`,
      { parent: "index.html" },
      htmlFile(bytes, "page.html"),
    ).finally(restore);

    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe("path_conflict");
    expect(await rowsWithoutBytes(sha256(bytes))).toEqual([]);
    expect((await server.edge.get(hostOf(second.site.url), "/twin")).text).toBe(bytes);
  });

  describe.runIf(driver === "postgres")("both sides at once", () => {
    /** Resolves true once a transaction of this database waits for a blob lock; false after `ms`. */
    async function someoneWaitsForALock(ms = 5000): Promise<boolean> {
      for (const end = Date.now() + ms; Date.now() < end; await new Promise((resolve) => setTimeout(resolve, 20))) {
        const waiting = rowsOf<{ n: number }>(
          await server.ctx.db.execute(sql`
            select count(*)::int as n from pg_locks
            where locktype = 'advisory' and not granted and objsubid = 2 and classid = ${BLOB_LOCK_SPACE}
              and database = (select oid from pg_database where datname = current_database())`),
        );
        if ((waiting[0]?.n ?? 0) > 0) return true;
      }
      return false;
    }

    function gate() {
      let open!: () => void;
      const opened = new Promise<void>((resolve) => (open = resolve));
      return { open, opened };
    }

    const stage = (bytes: string) =>
      stageUpload(
        server.ctx,
        { filename: "held.html", mimetype: "text/html", stream: Readable.from([Buffer.from(bytes)]) },
        { extractZip: false, plan: FREE_PLAN, usedBytes: 0, tmpDir: path.join(server.ctx.env.dataDir, "tmp") },
      );

    it("makes the deletion of unreferenced bytes wait for a commit that is recording them", async () => {
      const bytes = `<p>recorded while the deletion waits (${label})</p>`;
      const other = await otherSite();
      const staged = await stage(bytes);
      const recorded = gate();
      const finish = gate();
      const committing = server.ctx.db.transaction(async (tx) => {
        await commitStagedFiles(tx, { userId: other.user.id, siteId: other.site.id, parent: null, staged, quotaBytes: FREE_PLAN.storageBytes });
        recorded.open();
        await finish.opened;
      });
      await recorded.opened;
      const deleting = deleteUnreferencedBytes(server.ctx, [sha256(bytes)]);
      const waited = await someoneWaitsForALock();
      finish.open();
      await Promise.all([committing, deleting]);

      expect(waited).toBe(true);
      expect(await server.ctx.blobs.stat(sha256(bytes))).toBeDefined();
      expect(await rowsWithoutBytes(sha256(bytes))).toEqual([]);
    });

    it("makes a commit wait for a deletion of its bytes under way, then refuse", async () => {
      const bytes = `<p>deleted while the commit waits (${label})</p>`;
      const other = await otherSite();
      const staged = await stage(bytes);
      const deleted = gate();
      const finish = gate();
      const store = server.ctx.blobs;
      const deleting = deleteUnreferencedBytes(
        {
          db: server.ctx.db,
          blobs: {
            ...store,
            async delete(sha) {
              await store.delete(sha);
              deleted.open();
              await finish.opened;
            },
          },
        },
        [sha256(bytes)],
      );
      await deleted.opened;
      const committing = server.ctx.db.transaction((tx) =>
        commitStagedFiles(tx, { userId: other.user.id, siteId: other.site.id, parent: null, staged, quotaBytes: FREE_PLAN.storageBytes }),
      );
      const settled = committing.then(
        () => "committed",
        (error: { code?: string }) => error.code,
      );
      const waited = await someoneWaitsForALock();
      finish.open();
      await deleting;

      expect(waited).toBe(true);
      expect(await settled).toBe("upload_interrupted");
      expect(await rowsWithoutBytes(sha256(bytes))).toEqual([]);
    });
  });
});
