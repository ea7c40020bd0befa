// Daily backups store each blob once across the week: three days with changes between them cost
// their database snapshots plus the blobs new each day, pruning past seven removes only what no
// kept backup lists (and only once the new backup is complete), and the oldest and the newest
// kept backups restore byte for byte, on both databases.
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openDatabase, type Database } from "../db/client";
import { rowsOf } from "../db/rows";
import type { BlobStore } from "../storage/blobStore";
import { everyRow, listBlobs } from "../test/backups";
import { signedInClient, type BuiltUser } from "../test/factories";
import { createScratchDatabase, scratchName } from "../test/scratchDatabase";
import { createSiteWith, hostOf, htmlFile, multipartBody, postMultipart, zipOf } from "../test/sites";
import { DRIVERS, getTestServer, type Driver, type TestClient, type TestDatabase, type TestServer } from "../test/support";
import { solidPng } from "../../e2e/support/png";
import { BACKUP_DIR, KEEP_DAILY_BACKUPS, runDailyBackup } from "./daily";
import type { SharedBlobsManifest } from "./manifest";
import { restoreBackup } from "./restoreBackup";
import { sharedBlobPath } from "./sharedBlobs";
import { InvalidBackupError, readManifest, verifyBackup } from "./verifyBackup";

/** Larger than 1 KB and compressible, so the compressor stores brotli and gzip forms as blobs too. */
const BIG_PAGE = `<!doctype html><title>Guide</title>${"<p>Seven days, one copy of each blob.</p>\n".repeat(200)}`;

const day = (n: number) => new Date(`2026-04-${String(n).padStart(2, "0")}T03:00:00Z`);
const archiveName = (n: number) => `berth-2026-04-${String(n).padStart(2, "0")}.tar.gz`;

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The size of every file under `dir`, added up: what copying the folder off the machine costs. */
function bytesUnder(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += statSync(path.join(entry.parentPath, entry.name)).size;
  }
  return total;
}

/** The blobs the shared folder holds, by SHA-256, with their sizes. */
function sharedFolder(backups: string): Map<string, number> {
  const out = new Map<string, number>();
  const root = path.join(backups, "blobs");
  for (const entry of readdirSync(root, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && /^[0-9a-f]{64}$/.test(entry.name)) out.set(entry.name, statSync(path.join(entry.parentPath, entry.name)).size);
  }
  return out;
}

const archives = (backups: string) =>
  readdirSync(backups)
    .filter((n) => n.endsWith(".tar.gz"))
    .sort();

/** A day's backup is a real one, and this machine's tests share it: give each step time. */
const SLOW = { timeout: 240_000 };

describe.each(DRIVERS)("daily backups with shared blobs (%s)", (driver: Driver) => {
  let server: TestServer;
  let tmp: string;
  let backups: string;
  let alice: { client: TestClient; user: BuiltUser };
  let bob: { client: TestClient; user: BuiltUser };
  let pageId: string;
  let pageHost: string;
  let firstAvatar: string;
  /** What each day's backup should bring back: every row, and every blob's bytes. */
  const states = new Map<number, { rows: Record<string, string[]>; blobs: Map<string, Buffer> }>();
  const cleanups: (() => Promise<void>)[] = [];

  async function setAvatar(client: TestClient, rgb: [number, number, number]): Promise<string> {
    const { body, contentType } = multipartBody({}, { name: "me.png", content: solidPng(8, 8, rgb), type: "image/png" });
    const response = await client.request("PUT", "/api/me/avatar", { headers: { "content-type": contentType }, payload: body });
    expect(response.statusCode).toBe(200);
    return rowsOf<{ sha: string }>(await server.ctx.db.execute(sql`select avatar_sha256 as sha from profiles where id = ${bob.user.id}`))[0]!.sha;
  }

  /** Every blob the live store holds, with its bytes. */
  async function liveBlobs(): Promise<Map<string, Buffer>> {
    const out = new Map<string, Buffer>();
    for await (const blob of server.ctx.blobs.list()) out.set(blob.sha256, await bytesOf(await server.ctx.blobs.get(blob.sha256)));
    return out;
  }

  /** Runs day `n`'s backup and records what it should restore to. */
  async function backUp(n: number, ctx: Parameters<typeof runDailyBackup>[0] = server.ctx): Promise<string | undefined> {
    await server.compressor.kick();
    const file = await runDailyBackup(ctx, day(n));
    states.set(n, { rows: await everyRow(server.ctx.db), blobs: await liveBlobs() });
    return file;
  }

  const sharedOf = async (n: number) => ((await readManifest(path.join(backups, archiveName(n)))) as SharedBlobsManifest).blobs.list;

  /** The shared folder holds exactly the blobs the kept archives list. */
  async function expectFolderMatchesKept(): Promise<void> {
    const needed = new Map<string, number>();
    for (const name of archives(backups)) {
      const manifest = await readManifest(path.join(backups, name));
      expect(manifest.formatVersion).toBe(2);
      for (const blob of (manifest as SharedBlobsManifest).blobs.list) needed.set(blob.sha256, blob.size);
    }
    expect(sharedFolder(backups)).toEqual(needed);
  }

  async function target(label: string): Promise<{ dataDir: string; databaseUrl: string | undefined; open(): Promise<Database> }> {
    const dataDir = path.join(tmp, `restore-${label}`);
    if (driver === "pglite") return { dataDir, databaseUrl: undefined, open: () => openDatabase({ pgliteDir: path.join(dataDir, "db") }) };
    const database = await createScratchDatabase(scratchName(`${inject("runId")}_dly_${label}`), { adminUrl: inject("postgresAdminUrl") });
    cleanups.push(() => database.drop());
    return { dataDir, databaseUrl: database.url, open: () => openDatabase({ url: database.url }) };
  }

  beforeAll(async () => {
    tmp = mkdtempSync(path.join(os.tmpdir(), "berth-daily-test-"));
    server = await getTestServer(driver);
    backups = path.join(server.ctx.env.dataDir, BACKUP_DIR);
    alice = await signedInClient(server, { name: "Alice" });
    bob = await signedInClient(server, { name: "Bob" });
    const page = await createSiteWith(alice.client, htmlFile("<h1>Alice v1</h1>"), "Alice's page");
    pageId = page.id;
    pageHost = hostOf(page.url);
    firstAvatar = await setAvatar(bob.client, [200, 10, 10]);
  });

  afterAll(async () => {
    await server?.close();
    for (const cleanup of cleanups) await cleanup();
    rmSync(tmp, { recursive: true, force: true });
  });

  it("stores each blob once: a day costs its archive plus the blobs that are new since the day before", SLOW, async () => {
    const first = await backUp(1);
    expect(first).toBe(path.join(backups, archiveName(1)));
    // The archive holds the database, the secret and the list; the blobs are beside it, privately.
    const manifest = await verifyBackup(first!);
    expect(manifest.formatVersion).toBe(2);
    expect(manifest.parts.map((p) => p.name)).toEqual(["secret", expect.stringMatching(/^database\//)]);
    expect(statSync(path.join(backups, "blobs")).mode & 0o777).toBe(0o700);
    const live1 = states.get(1)!.blobs;
    expect(new Set(sharedFolder(backups).keys())).toEqual(new Set(live1.keys()));
    const blobBytes = (shas: Iterable<string>, from: Map<string, Buffer>) => [...shas].reduce((sum, sha) => sum + from.get(sha)!.length, 0);
    expect(bytesUnder(backups)).toBe(statSync(first!).size + blobBytes(live1.keys(), live1));

    // On the local store a blob is a hard link to the store's file: no second copy of its bytes.
    const [sha] = live1.keys();
    const inStore = statSync(path.join(server.ctx.env.dataDir, "blobs", sha!.slice(0, 2), sha!.slice(2, 4), sha!));
    const inBackup = statSync(sharedBlobPath(path.join(backups, "blobs"), sha!));
    expect(inBackup.ino).toBe(inStore.ino);
    expect(inBackup.mode & 0o777).toBe(0o600);

    // Day 2: a new version of Alice's page, a zipped site (with compressed forms), Bob's new picture
    // (the old one's bytes leave the store at once, but day 1 still needs them).
    expect((await postMultipart(alice.client, `/api/sites/${pageId}/files`, {}, htmlFile("<h1>Alice v2</h1>"))).statusCode).toBe(201);
    await createSiteWith(
      alice.client,
      {
        name: "guide.zip",
        type: "application/zip",
        content: await zipOf([
          { name: "index.html", data: BIG_PAGE },
          { name: "img/dot.png", data: solidPng(4, 4, [1, 2, 3]) },
        ]),
      },
      "Guide",
    );
    await setAvatar(bob.client, [10, 200, 10]);
    let before = bytesUnder(backups);
    let beforeFolder = sharedFolder(backups);
    for (const n of [2, 3]) {
      const file = await backUp(n);
      const live = states.get(n)!.blobs;
      const previous = states.get(n - 1)!.blobs;
      const added = [...live.keys()].filter((s) => !previous.has(s));
      expect(added.length).toBeGreaterThan(0);
      // Exactly the blobs new since the day before came into the folder, and nothing else grew.
      expect([...sharedFolder(backups).keys()].filter((s) => !beforeFolder.has(s)).sort()).toEqual(added.sort());
      expect(bytesUnder(backups) - before).toBe(statSync(file!).size + blobBytes(added, live));
      before = bytesUnder(backups);
      beforeFolder = sharedFolder(backups);
      // Day 3's change: another file.
      if (n === 2) {
        expect(
          (
            await postMultipart(
              alice.client,
              `/api/sites/${pageId}/files`,
              {},
              { name: "day3.css", content: "body { color: teal }", type: "text/css" },
            )
          ).statusCode,
        ).toBe(201);
      }
    }
    // Day 1's picture is only in day 1's list, and still in the folder for it.
    expect(states.get(1)!.blobs.has(firstAvatar)).toBe(true);
    expect(states.get(2)!.blobs.has(firstAvatar)).toBe(false);
    expect((await sharedOf(1)).map((b) => b.sha256)).toContain(firstAvatar);
    expect(sharedFolder(backups).has(firstAvatar)).toBe(true);
    await expectFolderMatchesKept();
  });

  it("keeps seven: past them the oldest archive goes, and then the blobs only it listed", SLOW, async () => {
    for (let n = 4; n <= 9; n++) {
      const before = bytesUnder(backups);
      const folder = sharedFolder(backups);
      const archiveSizes = new Map(archives(backups).map((name) => [name, statSync(path.join(backups, name)).size]));
      const file = await backUp(n);
      const removedArchives = [...archiveSizes.keys()].filter((name) => !existsSync(path.join(backups, name)));
      const removedBlobs = [...folder.keys()].filter((sha) => !sharedFolder(backups).has(sha));
      // Nothing changed: a day costs its archive alone. Day 8 removes day 1 and the picture only
      // day 1 listed; day 9 removes day 2, whose blobs later days still list.
      expect(removedArchives).toEqual(n >= 8 ? [archiveName(n - 7)] : []);
      expect(removedBlobs).toEqual(n === 8 ? [firstAvatar] : []);
      expect(bytesUnder(backups) - before).toBe(
        statSync(file!).size -
          removedArchives.reduce((sum, name) => sum + archiveSizes.get(name)!, 0) -
          removedBlobs.reduce((sum, sha) => sum + folder.get(sha)!, 0),
      );
      expect(archives(backups)).toHaveLength(Math.min(n, KEEP_DAILY_BACKUPS));
      await expectFolderMatchesKept();
    }
    expect(archives(backups)).toEqual([3, 4, 5, 6, 7, 8, 9].map(archiveName));
  });

  it("restores the oldest and the newest kept backup byte for byte: every row and every blob", SLOW, async () => {
    const restoredTargets = new Map<number, Awaited<ReturnType<typeof target>>>();
    for (const n of [3, 9]) {
      const state = states.get(n)!;
      const into = await target(`day${n}`);
      restoredTargets.set(n, into);
      const summary = await restoreBackup(path.join(backups, archiveName(n)), {
        dataDir: into.dataDir,
        databaseUrl: into.databaseUrl,
        s3: undefined,
      });
      expect(summary.manifest.blobs.count).toBe(state.blobs.size);
      const restoredBlobs = path.join(into.dataDir, "blobs");
      expect(await listBlobs(restoredBlobs)).toEqual([...state.blobs.keys()].sort());
      for (const [sha, bytes] of state.blobs) {
        expect(readFileSync(path.join(restoredBlobs, sha.slice(0, 2), sha.slice(2, 4), sha)).equals(bytes), sha).toBe(true);
      }
      const restored = await into.open();
      try {
        expect(await everyRow(restored.db)).toEqual(state.rows);
      } finally {
        await restored.close();
      }
    }
    // The revived day 3 serves what Alice's page was that day, and she signs in.
    const day3 = restoredTargets.get(3)!;
    const restored = await day3.open();
    const database: TestDatabase = { ...restored, destroy: () => restored.close() };
    const revived = await getTestServer(driver, { database, dataDir: day3.dataDir });
    try {
      expect((await revived.edge.get(pageHost, "/")).text).toBe("<h1>Alice v2</h1>");
      expect((await revived.edge.get(pageHost, "/day3.css")).text).toBe("body { color: teal }");
      const signIn = await revived.client().post("/api/auth/sign-in/email", { email: alice.user.email, password: alice.user.password });
      expect(signIn.statusCode).toBe(200);
    } finally {
      await revived.close();
    }
  });

  it("verification names the shared blobs that are missing or damaged, and a restore then writes nothing", SLOW, async () => {
    const file = path.join(backups, archiveName(9));
    const [first, second] = await sharedOf(9);
    const folder = path.join(backups, "blobs");
    const aside = path.join(tmp, "aside");
    cpSync(sharedBlobPath(folder, first!.sha256), aside);
    rmSync(sharedBlobPath(folder, first!.sha256));
    await expect(verifyBackup(file)).rejects.toThrow(InvalidBackupError);
    await expect(verifyBackup(file)).rejects.toThrow(new RegExp(`1 blob\\(s\\) it lists are missing from .*blobs \\(${first!.sha256}\\)`));
    // Damaged: same size, other bytes (only the digest tells).
    const damaged = sharedBlobPath(folder, second!.sha256);
    const original = readFileSync(damaged);
    rmSync(damaged);
    writeFileSync(damaged, Buffer.alloc(original.length, 0x41));
    await expect(verifyBackup(file)).rejects.toThrow(new RegExp(`do not hold the bytes it lists \\(size or SHA-256 differs: ${second!.sha256}\\)`));

    const into = await target("broken");
    await expect(restoreBackup(file, { dataDir: into.dataDir, databaseUrl: into.databaseUrl, s3: undefined })).rejects.toThrow(
      /Copy the whole backups folder, blobs included/,
    );
    expect(existsSync(into.dataDir)).toBe(false);

    rmSync(damaged);
    writeFileSync(damaged, original, { mode: 0o600 });
    cpSync(aside, sharedBlobPath(folder, first!.sha256));
    expect((await verifyBackup(file)).blobs.count).toBeGreaterThan(1);
  });

  it("leaves every kept backup restorable when a day's backup fails part-way, and prunes nothing until one completes", SLOW, async () => {
    // A change, so that the failing day has new blobs to store: two files.
    expect((await postMultipart(alice.client, `/api/sites/${pageId}/files`, {}, htmlFile("<h1>Alice v3</h1>"))).statusCode).toBe(201);
    expect(
      (await postMultipart(alice.client, `/api/sites/${pageId}/files`, {}, { name: "day10.css", content: "body { color: navy }", type: "text/css" }))
        .statusCode,
    ).toBe(201);
    await server.compressor.kick();
    let served = 0;
    // A store that stops answering after one blob (a bucket gone away): no hard links, copies only.
    const failing: BlobStore = {
      ...server.ctx.blobs,
      filePath: undefined,
      async get(sha256, range) {
        if (++served > 1) throw new Error("the store went away");
        return server.ctx.blobs.get(sha256, range);
      },
    };
    await expect(runDailyBackup({ ...server.ctx, blobs: failing }, day(10))).rejects.toThrow("the store went away");
    expect(served).toBeGreaterThan(1);
    expect(archives(backups)).toEqual([3, 4, 5, 6, 7, 8, 9].map(archiveName));
    for (const name of archives(backups)) await verifyBackup(path.join(backups, name));
    expect(readdirSync(backups).filter((n) => n.endsWith(".partial"))).toEqual([]);

    // The next check completes the day (copying from the store now), then prunes day 3.
    await backUp(10);
    expect(archives(backups)).toEqual([4, 5, 6, 7, 8, 9, 10].map(archiveName));
    await expectFolderMatchesKept();
    expect(existsSync(path.join(backups, "blobs", "tmp")) ? readdirSync(path.join(backups, "blobs", "tmp")) : []).toEqual([]);
  });

  it("prunes no blob while a kept archive cannot be read", SLOW, async () => {
    const kept = path.join(backups, archiveName(6));
    const saved = readFileSync(kept);
    writeFileSync(kept, saved.subarray(0, saved.length >> 1));
    const orphan = sharedBlobPath(path.join(backups, "blobs"), "f".repeat(64));
    cpSync(path.join(tmp, "aside"), orphan);
    await backUp(11);
    // Day 4 went (past seven), but with day 6's list unreadable no blob may go: it could be day 6's.
    expect(archives(backups)).toEqual([5, 6, 7, 8, 9, 10, 11].map(archiveName));
    expect(existsSync(orphan)).toBe(true);
    // Once every kept list reads again, the next day's prune removes what none of them lists.
    writeFileSync(kept, saved);
    await backUp(12);
    expect(existsSync(orphan)).toBe(false);
    await expectFolderMatchesKept();
  });
});
