// Rebuilds a Berth from a backup archive into a fresh data directory (and an empty PostgreSQL
// database, or the configured bucket). Two passes over the file: the first reads every entry,
// hashes it and checks it against the manifest, writing nothing; only an archive that passes
// is read again and written out, and the second pass checks every hash again in case the file
// changed in between. A daily archive's blobs are read from the shared folder beside it, in both
// passes, and checked the same way (size and SHA-256). A failure part-way removes what the restore wrote: the data directory's
// new contents, the blobs it added to a bucket, and (one transaction) the PostgreSQL rows.
//
// The database may change kind on the way: a PGlite backup restores into PostgreSQL (through a
// temporary PGlite opened from the archive and the logical dump) and a PostgreSQL backup into
// PGlite, so a restore is also how an instance moves from one to the other.
import { createReadStream, existsSync } from "node:fs";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import type { PGlite } from "@electric-sql/pglite";
import { readMigrationFiles, type MigrationMeta } from "drizzle-orm/migrator";
import { openDatabase, type Database, type Db, type Executor } from "../db/client";
import { lockDataDir } from "../db/lock";
import { openPrivatePglite } from "../db/privatePglite";
import type { Env } from "../env";
import { migrationsDir } from "../paths";
import { PRIVATE_FILE } from "../privateFiles";
import { createBlobStore } from "../storage";
import { checkMigrations, importLogicalDump, isEmptyDatabase, linesOf, MigrationMismatchError } from "./logicalDump";
import { blobOfPart, MANIFEST_NAME, SECRET_PART, type BackupManifest, type Part, type SharedBlobsManifest } from "./manifest";
import { SECRET_FILE } from "./serverSecret";
import { readSharedBlob, sharedBlobDir, sharedBlobPath } from "./sharedBlobs";
import { dumpToTempFile } from "./snapshot";
import type { TarEntry } from "./tar";
import { collect, hashing, InvalidBackupError, readArchive, verifyBackup } from "./verifyBackup";

/** The archive is fine but the target is not one a restore may write into: nothing was written. */
export class RestoreRefusedError extends Error {}

/** Entries on a fresh filesystem's root that do not make a directory "in use". */
const IGNORED_ENTRIES = new Set(["lost+found"]);

export type RestoreEnv = Pick<Env, "dataDir" | "databaseUrl" | "s3">;

export interface RestoreSummary {
  manifest: BackupManifest;
  /** The secret the backup carried: the restored instance must run with it. */
  secret: string;
  target: { database: "pglite" | "postgres"; blobs: "fs" | "s3" };
}

async function isFreshDirectory(dir: string): Promise<boolean> {
  if (!existsSync(dir)) return true;
  return (await readdir(dir)).every((name) => IGNORED_ENTRIES.has(name));
}

/** Opens a PGlite data directory from the archive's copy of one; the caller closes it. */
async function pgliteFromDump(dir: string, dump: Buffer): Promise<PGlite> {
  // PGlite takes anything that is not a tar for gzip, and its gunzip error escapes as an uncaught
  // exception that would end this process before it could clean up.
  if (dump.length < 512 || dump.subarray(257, 262).toString("latin1") !== "ustar") {
    throw new InvalidBackupError("The archive's database is not a PGlite data directory.");
  }
  const pglite = await openPrivatePglite(dir, { loadDataDir: new Blob([new Uint8Array(dump)]) });
  await pglite.waitReady;
  return pglite;
}

interface DatabaseTarget {
  /** PostgreSQL: the transaction every row goes in through. */
  tx?: Executor;
  pgliteDir: string;
}

async function restoreDatabase(
  entry: TarEntry,
  part: Part,
  kind: "pglite" | "postgres",
  target: DatabaseTarget,
  local: MigrationMeta[],
): Promise<void> {
  const body = hashing(entry.body, part);
  if (kind === "postgres") {
    if (target.tx) {
      await importLogicalDump(target.tx, linesOf(body), local);
      return;
    }
    const database = await openDatabase({ pgliteDir: target.pgliteDir });
    try {
      await database.db.transaction((tx) => importLogicalDump(tx, linesOf(body), local));
    } finally {
      await database.close();
    }
    return;
  }
  const dump = await collect(body, part.size);
  if (!target.tx) {
    await (await pgliteFromDump(target.pgliteDir, dump)).close();
    return;
  }
  // PGlite into PostgreSQL: open the copy in a temporary directory and move it across as a
  // logical dump, exactly as a PostgreSQL backup would restore.
  const scratch = await mkdtemp(path.join(os.tmpdir(), "berth-restore-"));
  try {
    const pglite = await pgliteFromDump(path.join(scratch, "db"), dump);
    let dumped: Awaited<ReturnType<typeof dumpToTempFile>> | undefined;
    try {
      const { drizzle } = await import("drizzle-orm/pglite");
      const db = drizzle(pglite) as unknown as Db;
      dumped = await dumpToTempFile((run) => db.transaction(run));
    } finally {
      await pglite.close();
    }
    try {
      await importLogicalDump(target.tx, linesOf(createReadStream(dumped.file)), local);
    } finally {
      await rm(dumped.dir, { recursive: true, force: true });
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/**
 * Restores `file` into `env`'s data directory, database and blob store. Refuses (writing nothing)
 * an archive that fails verification, a data directory that is not empty, a PostgreSQL database
 * that is not empty, and a backup whose migrations this Berth does not have.
 */
export async function restoreBackup(file: string, env: RestoreEnv): Promise<RestoreSummary> {
  const manifest = await verifyBackup(file);
  const local = readMigrationFiles({ migrationsFolder: migrationsDir });
  try {
    checkMigrations(manifest.database.migrations, local);
  } catch (error) {
    if (error instanceof MigrationMismatchError) throw new RestoreRefusedError(error.message);
    throw error;
  }
  const dataDir = env.dataDir;
  if (!(await isFreshDirectory(dataDir))) {
    throw new RestoreRefusedError(`${dataDir} is not empty: restore into a new or empty data directory (--data-dir).`);
  }
  let postgres: Database | undefined;
  if (env.databaseUrl) {
    postgres = await openDatabase({ url: env.databaseUrl });
    if (!(await isEmptyDatabase(postgres.db))) {
      await postgres.close();
      throw new RestoreRefusedError("The database at DATABASE_URL is not empty: restore into a new, empty database.");
    }
  }

  const createdDir = !existsSync(dataDir);
  let releaseLock: () => void;
  try {
    // No Berth may start on the directory while it is half restored.
    releaseLock = lockDataDir(dataDir);
  } catch (error) {
    await postgres?.close();
    throw error;
  }
  const blobs = createBlobStore(env, dataDir);
  const addedToBucket: string[] = [];
  const parts = new Map(manifest.parts.map((p) => [p.name, p]));
  let secret: string | undefined;

  const putBlob = async (body: AsyncIterable<Buffer>, sha256: string, maxBytes: number, name: string) => {
    const put = await blobs.put(Readable.from(body), { maxBytes });
    if (put.sha256 !== sha256) throw new InvalidBackupError(`${name} does not hold the blob its name says.`);
    if (put.created && env.s3) addedToBucket.push(sha256);
  };

  const pass = async (tx: Executor | undefined) => {
    // A daily archive: its blobs first, from the shared folder, as the database comes last.
    if (manifest.formatVersion === 2) await restoreSharedBlobs(file, manifest, putBlob);
    await readArchive(file, async (entry) => {
      if (entry.name === MANIFEST_NAME) return;
      const part = parts.get(entry.name);
      if (!part) throw new InvalidBackupError(`${entry.name} is not in the manifest: the archive changed since it was checked.`);
      const blob = blobOfPart(entry.name);
      if (blob !== undefined) {
        await putBlob(hashing(entry.body, part), blob, part.size, entry.name);
      } else if (entry.name === SECRET_PART) {
        const text = (await collect(hashing(entry.body, part), part.size)).toString("utf8");
        secret = text.trim();
        await writeFile(path.join(dataDir, SECRET_FILE), text, { mode: PRIVATE_FILE, flag: "wx" });
      } else {
        await restoreDatabase(entry, part, manifest.database.kind, { tx, pgliteDir: path.join(dataDir, "db") }, local);
      }
    });
  };

  try {
    if (postgres) await postgres.db.transaction((tx) => pass(tx));
    else await pass(undefined);
  } catch (error) {
    releaseLock();
    await removeRestored(dataDir, createdDir);
    for (const sha of addedToBucket) await blobs.delete(sha).catch(() => {});
    throw error;
  } finally {
    await postgres?.close();
  }
  releaseLock();
  return {
    manifest,
    secret: secret!,
    target: { database: env.databaseUrl ? "postgres" : "pglite", blobs: env.s3 ? "s3" : "fs" },
  };
}

/** Puts every blob a daily archive lists, read from the shared folder beside it and checked as it passes. */
async function restoreSharedBlobs(
  file: string,
  manifest: SharedBlobsManifest,
  put: (body: AsyncIterable<Buffer>, sha256: string, maxBytes: number, name: string) => Promise<void>,
): Promise<void> {
  const dir = sharedBlobDir(path.dirname(file));
  for (const blob of manifest.blobs.list) {
    const name = sharedBlobPath(dir, blob.sha256);
    try {
      await put(hashing(readSharedBlob(dir, blob.sha256), { name, ...blob }), blob.sha256, blob.size, name);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      throw new InvalidBackupError(`${name} is gone: it was there when the backup was checked (was the backups folder pruned meanwhile?).`);
    }
  }
}

/** Undoes a failed restore in a directory that was new or empty before it. */
async function removeRestored(dataDir: string, createdDir: boolean): Promise<void> {
  if (createdDir) {
    await rm(dataDir, { recursive: true, force: true });
    return;
  }
  for (const name of await readdir(dataDir).catch(() => [] as string[])) {
    if (!IGNORED_ENTRIES.has(name)) await rm(path.join(dataDir, name), { recursive: true, force: true });
  }
}
