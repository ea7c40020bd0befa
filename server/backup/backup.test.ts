// Backups on both databases: a populated instance backed up while it serves, restored into a fresh
// data directory (and an empty PostgreSQL database), with every table, blob and the secret back;
// across kinds (PGlite ↔ PostgreSQL); blobs deleted during a backup; and archives that must be
// refused without writing anything.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { gunzipSync, gzipSync } from "node:zlib";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createScratchDatabase, scratchName } from "../test/scratchDatabase";
import { openDatabase, type Database } from "../db/client";
import { rowsOf } from "../db/rows";
import { everyRow, listBlobs } from "../test/backups";
import { DRIVERS, getTestServer, type Driver, type TestClient, type TestDatabase, type TestServer } from "../test/support";
import { signedInClient, type BuiltUser } from "../test/factories";
import { createSiteWith, hostOf, htmlFile, multipartBody, postMultipart, zipOf } from "../test/sites";
import { solidPng } from "../../e2e/support/png";
import { BackupError, MAX_SNAPSHOT_ROUNDS, writeBackup, writeBackupFile } from "./createBackup";
import { DATABASE_PARTS, type BackupManifest, type Part } from "./manifest";
import { restoreBackup, RestoreRefusedError } from "./restoreBackup";
import { readTar, tarEnd, tarEntry, tarHeader } from "./tar";
import { InvalidBackupError, verifyBackup } from "./verifyBackup";

const SECRET = "test-secret-test-secret-test-secret-0123";
/** Larger than 1 KB and compressible, so the compressor stores brotli and gzip forms as blobs. */
const BIG_PAGE = `<!doctype html><title>Docs</title>${"<p>Berth keeps every byte.</p>\n".repeat(200)}`;

/** An empty PostgreSQL database of this run (dropped by the global teardown). */
const emptyPostgres = (label: string) =>
  createScratchDatabase(scratchName(`${inject("runId")}_bk_${label}`), { adminUrl: inject("postgresAdminUrl") });

/** Rewrites the archive's tar: `edit` gets the decompressed bytes and the offset of each entry's body. */
function tamper(file: string, out: string, edit: (tar: Buffer, bodies: Map<string, { offset: number; size: number }>) => Buffer | void): void {
  const tar = gunzipSync(readFileSync(file));
  const bodies = new Map<string, { offset: number; size: number }>();
  for (let offset = 0; offset + 512 <= tar.length && tar[offset] !== 0;) {
    const name = tar
      .subarray(offset, offset + 100)
      .toString("utf8")
      .replace(/\0.*$/s, "");
    const size = Number.parseInt(tar.subarray(offset + 124, offset + 136).toString("ascii"), 8);
    bodies.set(name, { offset: offset + 512, size });
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  const edited = edit(tar, bodies) ?? tar;
  writeFileSync(out, gzipSync(edited));
}

/**
 * Rewrites an archive with `replace` giving new bytes for some entries, and a manifest that agrees
 * with them: an archive that passes every check and still cannot be restored.
 */
async function forge(file: string, out: string, replace: (name: string, body: Buffer) => Buffer): Promise<void> {
  const entries: { name: string; body: Buffer }[] = [];
  for await (const entry of readTar(Readable.from([gunzipSync(readFileSync(file))]))) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry.body) chunks.push(chunk);
    entries.push({ name: entry.name, body: replace(entry.name, Buffer.concat(chunks)) });
  }
  const manifest = JSON.parse(entries.pop()!.body.toString("utf8")) as BackupManifest;
  const chunks: Buffer[] = [];
  const parts: Part[] = [];
  for (const { name, body } of entries) {
    for await (const chunk of tarEntry(name, body.length, body, (digest) => parts.push({ name, ...digest }))) chunks.push(chunk);
  }
  const json = Buffer.from(JSON.stringify({ ...manifest, parts }));
  for await (const chunk of tarEntry("manifest.json", json.length, json, () => {})) chunks.push(chunk);
  chunks.push(tarEnd());
  writeFileSync(out, gzipSync(Buffer.concat(chunks)));
}

describe.each(DRIVERS)("backups (%s)", (driver: Driver) => {
  const other: Driver = driver === "pglite" ? "postgres" : "pglite";
  let server: TestServer;
  let tmp: string;
  let archive: string;
  let alice: { client: TestClient; user: BuiltUser };
  let bob: { client: TestClient; user: BuiltUser };
  const sites: { host: string; paths: Record<string, string> }[] = [];
  const cleanups: (() => Promise<void>)[] = [];

  async function setAvatar(client: TestClient, rgb: [number, number, number]): Promise<void> {
    const { body, contentType } = multipartBody({}, { name: "me.png", content: solidPng(8, 8, rgb), type: "image/png" });
    const response = await client.request("PUT", "/api/me/avatar", { headers: { "content-type": contentType }, payload: body });
    expect(response.statusCode).toBe(200);
  }

  /** A data directory and database to restore into, of `kind`. */
  async function target(kind: Driver, label: string): Promise<{ dataDir: string; databaseUrl: string | undefined; open(): Promise<Database> }> {
    const dataDir = path.join(tmp, `restore-${label}`);
    if (kind === "pglite") return { dataDir, databaseUrl: undefined, open: () => openDatabase({ pgliteDir: path.join(dataDir, "db") }) };
    const database = await emptyPostgres(label);
    cleanups.push(() => database.drop());
    return { dataDir, databaseUrl: database.url, open: () => openDatabase({ url: database.url }) };
  }

  beforeAll(async () => {
    tmp = mkdtempSync(path.join(os.tmpdir(), "berth-backup-test-"));
    server = await getTestServer(driver);
    alice = await signedInClient(server, { name: "Alice" });
    bob = await signedInClient(server, { name: "Bob" });

    // Alice: a one-page site with a history of three deployments, and a zipped site.
    const page = await createSiteWith(alice.client, htmlFile("<h1>Alice v1</h1>"), "Alice's page");
    for (const version of [2, 3]) {
      const upload = await postMultipart(alice.client, `/api/sites/${page.id}/files`, {}, htmlFile(`<h1>Alice v${version}</h1>`));
      expect(upload.statusCode).toBe(201);
    }
    sites.push({ host: hostOf(page.url), paths: { "/": "<h1>Alice v3</h1>" } });
    const zipped = await createSiteWith(
      alice.client,
      {
        name: "docs.zip",
        type: "application/zip",
        content: await zipOf([
          { name: "index.html", data: BIG_PAGE },
          { name: "css/site.css", data: "body { color: teal }" },
          { name: "img/dot.png", data: solidPng(4, 4, [1, 2, 3]) },
        ]),
      },
      "Docs",
    );
    sites.push({ host: hostOf(zipped.url), paths: { "/": BIG_PAGE, "/css/site.css": "body { color: teal }" } });
    // Bob: a site, and a profile picture.
    const bobs = await createSiteWith(bob.client, htmlFile("<h1>Bob</h1>"), "Bob's");
    sites.push({ host: hostOf(bobs.url), paths: { "/": "<h1>Bob</h1>" } });
    await setAvatar(bob.client, [200, 10, 10]);
    await server.compressor.kick();
    // A row of the one table with an identity column, whose sequence must come back too.
    await server.ctx.db.execute(
      sql`insert into analytics_batches (site_id, at, events) values (${page.id}, now(), '[{"host_kind": "subdomain", "path": "/", "status": 200, "page_view": true, "bot": false, "requests": 1, "bytes": 9007199254740993}]')`,
    );

    archive = path.join(tmp, "berth.tar.gz");
    await writeBackupFile(archive, (out) => writeBackup({ db: server.ctx.db, blobs: server.ctx.blobs, secret: SECRET }, out));
  });

  afterAll(async () => {
    await server?.close();
    for (const cleanup of cleanups) await cleanup();
    rmSync(tmp, { recursive: true, force: true });
  });

  it("writes one private archive whose manifest lists the database, the secret and every blob", async () => {
    expect(statSync(archive).mode & 0o777).toBe(0o600);
    const manifest = await verifyBackup(archive);
    const referenced = rowsOf<{ count: string | number }>(await server.ctx.db.execute(sql`select count(*) as count from blobs`))[0]!;
    expect(manifest).toMatchObject({
      format: "berth-backup",
      formatVersion: 1,
      berthVersion: expect.stringMatching(/^\d+\.\d+\.\d+/),
      database: { kind: driver, part: DATABASE_PARTS[driver] },
      blobs: { count: Number(referenced.count) },
    });
    expect(manifest.database.migrations.length).toBeGreaterThan(5);
    expect(manifest.parts.map((p) => p.name).slice(-2)).toEqual(["secret", DATABASE_PARTS[driver]]);
    // The zip's page, its compressed forms and the avatar are all in it.
    const variants = rowsOf<{ sha: string }>(
      await server.ctx.db.execute(sql`select variant_sha256 as sha from blob_variants where variant_sha256 is not null`),
    );
    expect(variants.length).toBeGreaterThan(0);
    const names = new Set(manifest.parts.map((p) => p.name));
    for (const { sha } of variants) expect(names.has(`blobs/${sha}`)).toBe(true);
    // No temporary file is left beside it.
    expect(readdirNames(tmp).filter((n) => n.endsWith(".partial"))).toEqual([]);
  });

  it("restores into a fresh data directory: every row, blob and the secret, and the instance serves and signs in", async () => {
    const into = await target(driver, "same");
    const summary = await restoreBackup(archive, { dataDir: into.dataDir, databaseUrl: into.databaseUrl, s3: undefined });
    expect(summary.target).toEqual({ database: driver, blobs: "fs" });
    expect(readFileSync(path.join(into.dataDir, "secret"), "utf8")).toBe(`${SECRET}\n`);
    expect(statSync(path.join(into.dataDir, "secret")).mode & 0o777).toBe(0o600);
    expect(existsSync(path.join(into.dataDir, "berth.lock"))).toBe(false);
    expect(await listBlobs(path.join(into.dataDir, "blobs"))).toEqual(await listBlobs(path.join(server.ctx.env.dataDir, "blobs")));

    const restored = await into.open();
    expect(await everyRow(restored.db)).toEqual(await everyRow(server.ctx.db));
    // Migrations are recorded, so the server's start-up has nothing to apply; the identity sequence
    // continues after the restored row (PGlite's copy recovers like a crash, which may skip the
    // 32 values PostgreSQL logs ahead).
    await restored.migrate();
    const next = rowsOf<{ id: string | number }>(
      await restored.db.execute(
        sql`insert into analytics_batches (site_id, at, events) select site_id, at, events from analytics_batches returning id`,
      ),
    );
    expect(Number(next[0]!.id)).toBeGreaterThan(1);

    const database: TestDatabase = { ...restored, destroy: () => restored.close() };
    const revived = await getTestServer(driver, { database, dataDir: into.dataDir });
    try {
      for (const site of sites) {
        for (const [pathname, body] of Object.entries(site.paths)) {
          const response = await revived.edge.get(site.host, pathname);
          expect(response.status).toBe(200);
          expect(response.text).toBe(body);
        }
      }
      for (const { user } of [alice, bob]) {
        const signIn = await revived.client().post("/api/auth/sign-in/email", { email: user.email, password: user.password });
        expect(signIn.statusCode).toBe(200);
      }
      const avatar = await bob.client.get("/api/me/avatar");
      const restoredAvatar = await (async () => {
        const client = revived.client();
        await client.post("/api/auth/sign-in/email", { email: bob.user.email, password: bob.user.password });
        return client.get("/api/me/avatar");
      })();
      expect(restoredAvatar.statusCode).toBe(200);
      expect(restoredAvatar.rawPayload.equals(avatar.rawPayload)).toBe(true);
    } finally {
      await revived.close();
    }
  });

  it(`restores into ${other} as well, so a restore also moves an instance between databases`, async () => {
    const into = await target(other, "other");
    const summary = await restoreBackup(archive, { dataDir: into.dataDir, databaseUrl: into.databaseUrl, s3: undefined });
    expect(summary.target.database).toBe(other);
    const restored = await into.open();
    try {
      expect(await everyRow(restored.db)).toEqual(await everyRow(server.ctx.db));
      await restored.migrate();
    } finally {
      await restored.close();
    }
  });

  it("refuses a changed archive before writing anything", async () => {
    const changedDatabase = path.join(tmp, "changed-db.tar.gz");
    tamper(archive, changedDatabase, (tar, bodies) => {
      const part = bodies.get(DATABASE_PARTS[driver])!;
      tar[part.offset + Math.floor(part.size / 2)]! ^= 0x01;
    });
    const changedBlob = path.join(tmp, "changed-blob.tar.gz");
    tamper(archive, changedBlob, (tar, bodies) => {
      const [, part] = [...bodies].find(([name, p]) => name.startsWith("blobs/") && p.size > 0)!;
      tar[part.offset]! ^= 0x01;
    });
    const extra = path.join(tmp, "extra.tar.gz");
    tamper(archive, extra, (tar) => {
      const manifestAt = tar.lastIndexOf(Buffer.from("manifest.json\0"));
      // Renaming the manifest makes the archive one with no manifest and an unknown entry.
      tar.write("manifest.jsox", manifestAt, "utf8");
    });
    const cut = path.join(tmp, "cut.tar.gz");
    writeFileSync(cut, readFileSync(archive).subarray(0, Math.floor(statSync(archive).size / 2)));
    const notBackup = path.join(tmp, "not-a-backup.tar.gz");
    writeFileSync(notBackup, "hello");

    for (const [file, message] of [
      [changedDatabase, /does not match the SHA-256 the manifest gives it/],
      [changedBlob, /does not match the SHA-256 the manifest gives it/],
      [extra, /damaged|not part of a Berth backup/],
      [cut, /not a Berth backup, or it is damaged/],
      [notBackup, /not a Berth backup, or it is damaged/],
    ] as const) {
      const into = await target(driver, `bad${Math.random().toString(36).slice(2, 6)}`);
      const restoring = restoreBackup(file, { dataDir: into.dataDir, databaseUrl: into.databaseUrl, s3: undefined });
      await expect(restoring).rejects.toThrow(InvalidBackupError);
      await expect(restoring).rejects.toThrow(message);
      expect(existsSync(into.dataDir)).toBe(false);
      if (into.databaseUrl) {
        const untouched = await into.open();
        expect(rowsOf(await untouched.db.execute(sql`select 1 from pg_tables where schemaname in ('public', 'drizzle')`))).toEqual([]);
        await untouched.close();
      }
    }
  });

  it("removes what it wrote when the database cannot be loaded after all", async () => {
    // Hashes and manifest agree, so only loading the database finds the problem: a logical dump
    // without its last line, or a tar that is not a PGlite data directory.
    const forged = path.join(tmp, "forged.tar.gz");
    await forge(archive, forged, (name, body) => {
      if (name !== DATABASE_PARTS[driver]) return body;
      if (driver === "postgres") return body.subarray(0, body.lastIndexOf("\n", body.length - 2) + 1);
      const note = Buffer.from("not a database\n");
      return Buffer.concat([tarHeader("PG_NOTE", note.length, new Date()), note, Buffer.alloc(512 - note.length), tarEnd()]);
    });
    expect((await verifyBackup(forged)).parts.length).toBeGreaterThan(3);
    const into = await target(driver, "forged");
    await expect(restoreBackup(forged, { dataDir: into.dataDir, databaseUrl: into.databaseUrl, s3: undefined })).rejects.toThrow(
      driver === "postgres" ? /cut short/ : /PGlite failed to initialize/,
    );
    expect(existsSync(into.dataDir)).toBe(false);
    if (into.databaseUrl) {
      const untouched = await into.open();
      expect(rowsOf(await untouched.db.execute(sql`select 1 from pg_tables where schemaname in ('public', 'drizzle')`))).toEqual([]);
      await untouched.close();
    }
  });

  it("refuses a data directory or a database that is not empty", async () => {
    const used = mkdtempSync(path.join(tmp, "used-"));
    writeFileSync(path.join(used, "note"), "mine");
    await expect(restoreBackup(archive, { dataDir: used, databaseUrl: undefined, s3: undefined })).rejects.toThrow(RestoreRefusedError);
    expect(readdirNames(used)).toEqual(["note"]);
    if (driver === "postgres") {
      const into = await target("postgres", "full");
      await restoreBackup(archive, { dataDir: into.dataDir, databaseUrl: into.databaseUrl, s3: undefined });
      const again = path.join(tmp, "again");
      await expect(restoreBackup(archive, { dataDir: again, databaseUrl: into.databaseUrl, s3: undefined })).rejects.toThrow(
        /DATABASE_URL is not empty/,
      );
      expect(existsSync(again)).toBe(false);
    }
  });

  it("takes a new snapshot when a blob it refers to is deleted before it is copied", async () => {
    const before = rowsOf<{ sha: string }>(await server.ctx.db.execute(sql`select avatar_sha256 as sha from profiles where id = ${bob.user.id}`))[0]!
      .sha;
    const rounds: number[] = [];
    const file = path.join(tmp, "racing.tar.gz");
    const manifest = await writeBackupFile(file, (out) =>
      writeBackup({ db: server.ctx.db, blobs: server.ctx.blobs, secret: SECRET }, out, {
        afterSnapshot: async (round, snapshot) => {
          rounds.push(round);
          // Bob changes his picture after the first snapshot: the old one's bytes are deleted at once.
          if (round === 1) {
            expect(snapshot.blobs.map((b) => b.sha256)).toContain(before);
            await setAvatar(bob.client, [10, 200, 10]);
          }
        },
      }),
    );
    expect(rounds).toEqual([1, 2]);
    const after = rowsOf<{ sha: string }>(await server.ctx.db.execute(sql`select avatar_sha256 as sha from profiles where id = ${bob.user.id}`))[0]!
      .sha;
    expect(after).not.toBe(before);
    const names = manifest.parts.map((p) => p.name);
    expect(names).toContain(`blobs/${after}`);
    expect(names).not.toContain(`blobs/${before}`);

    const into = await target(driver, "race");
    await restoreBackup(file, { dataDir: into.dataDir, databaseUrl: into.databaseUrl, s3: undefined });
    expect(await listBlobs(path.join(into.dataDir, "blobs"))).toContain(after);
  });

  it("fails, naming the blob and leaving no file, when the store has lost a blob the database refers to", async () => {
    const page = sites[0]!;
    const response = await server.edge.get(page.host, "/");
    const lost = rowsOf<{ sha: string }>(
      await server.ctx.db.execute(sql`select sha256 as sha from site_files where file_path = 'index.html' limit 1`),
    )[0]!.sha;
    const bytes = readFileSync(path.join(server.ctx.env.dataDir, "blobs", lost.slice(0, 2), lost.slice(2, 4), lost));
    await server.ctx.blobs.delete(lost);
    const file = path.join(tmp, "lost.tar.gz");
    let rounds = 0;
    try {
      await expect(
        writeBackupFile(file, (out) =>
          writeBackup({ db: server.ctx.db, blobs: server.ctx.blobs, secret: SECRET }, out, { afterSnapshot: async () => void rounds++ }),
        ),
      ).rejects.toThrow(BackupError);
      expect(rounds).toBe(MAX_SNAPSHOT_ROUNDS);
      await expect(writeBackupFile(file, (out) => writeBackup({ db: server.ctx.db, blobs: server.ctx.blobs, secret: SECRET }, out))).rejects.toThrow(
        new RegExp(`missing from the blob store \\(.*${lost}`),
      );
      expect(existsSync(file)).toBe(false);
      expect(readdirNames(tmp).filter((n) => n.endsWith(".partial"))).toEqual([]);
    } finally {
      await server.ctx.blobs.put(Readable.from([bytes]), { maxBytes: bytes.length });
    }
    expect(response.status).toBe(200);
  });
});

function readdirNames(dir: string): string[] {
  return readdirSync(dir);
}
