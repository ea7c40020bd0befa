// The database half of a backup: one consistent snapshot, and the list of blobs that snapshot
// refers to, read from the same snapshot.
//
// PGlite: dumpDataDir(), PGlite's own copy of its data directory (what its clone() uses). It runs
// while no query runs, and it is taken inside a transaction that first reads the blob list: PGlite
// serialises transactions, so no write can fall between the two. The copy is what a crash at that
// instant would leave, which PostgreSQL's recovery turns into exactly the committed state when it
// is opened. It costs a pause of a fraction of a second per 40 MB, while the live database waits,
// and the copy is held in memory until it is in the archive (PGlite databases are small; the
// bulk of an instance is its blobs, which are streamed).
//
// PostgreSQL: a logical dump (logicalDump.ts) inside one REPEATABLE READ, READ ONLY transaction,
// which sees one instant of every table and blocks no writer.
import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { once } from "node:events";
import os from "node:os";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { databaseActivity, type Db, type Executor } from "../db/client";
import { rowsOf } from "../db/rows";
import { appliedMigrations, exportLogicalDump } from "./logicalDump";
import type { AppliedMigration, DatabaseKind } from "./manifest";

export interface BlobRef {
  sha256: string;
  /** From the blobs table; null for a reference without a row there (the store is asked). */
  size: number | null;
}

export interface Snapshot {
  kind: DatabaseKind;
  takenAt: Date;
  migrations: AppliedMigration[];
  /** Every blob the snapshot refers to, in name order. */
  blobs: BlobRef[];
  /** The database part's length and bytes (readable once). */
  size: number;
  read(): AsyncIterable<Buffer | Uint8Array>;
  discard(): Promise<void>;
}

/**
 * Every column that names a blob. A blob in the blobs table has bytes in the store (rows are
 * registered after the bytes, and deleted before them); the others are listed as well so that a
 * reference without a row still makes it into the backup.
 */
export async function referencedBlobs(db: Executor): Promise<BlobRef[]> {
  const rows = rowsOf<{ sha256: string; size: string | number | null }>(
    await db.execute(sql`
      select r.sha256, b.size from (
        select sha256 from blobs
        union select sha256 from site_files where sha256 is not null
        union select sha256 from deployment_files
        union select sha256 from blob_variants
        union select variant_sha256 from blob_variants where variant_sha256 is not null
        union select avatar_sha256 from profiles where avatar_sha256 is not null
      ) r left join blobs b on b.sha256 = r.sha256
      order by r.sha256`),
  );
  return rows.map((r) => ({ sha256: r.sha256, size: r.size === null ? null : Number(r.size) }));
}

/** The PGlite instance behind a drizzle handle, or undefined when it is a PostgreSQL pool. */
export function pgliteOf(db: Db): PGlite | undefined {
  return databaseActivity(db)?.kind === "pglite" ? (db as unknown as { $client: PGlite }).$client : undefined;
}

export async function takeSnapshot(db: Db): Promise<Snapshot> {
  const pglite = pgliteOf(db);
  return pglite ? snapshotPglite(pglite) : snapshotPostgres(db);
}

async function snapshotPglite(pglite: PGlite): Promise<Snapshot> {
  let blobs: BlobRef[] = [];
  let migrations: AppliedMigration[] = [];
  let dump: Blob | undefined;
  let takenAt = new Date();
  const { drizzle } = await import("drizzle-orm/pglite");
  await pglite.transaction(async (tx) => {
    // The transaction's own handle: the same session, inside the same transaction mutex.
    const db = drizzle(tx as unknown as PGlite) as unknown as Executor;
    blobs = await referencedBlobs(db);
    migrations = await appliedMigrations(db);
    takenAt = new Date();
    // "none": the archive is gzipped as a whole.
    dump = await pglite.dumpDataDir("none");
  });
  const data = dump!;
  return {
    kind: "pglite",
    takenAt,
    migrations,
    blobs,
    size: data.size,
    read: () => data.stream(),
    discard: async () => {},
  };
}

/** Writes lines to a file, waiting whenever the file's buffer is full. */
function lineWriter(stream: NodeJS.WritableStream): (line: string) => Promise<void> {
  return async (line) => {
    if (!stream.write(`${line}\n`)) await once(stream, "drain");
  };
}

/** Exports through a database handle into a temporary file; `inTransaction` opens the snapshot. */
export async function dumpToTempFile(
  inTransaction: <T>(run: (tx: Executor) => Promise<T>) => Promise<T>,
): Promise<{ file: string; dir: string; blobs: BlobRef[]; migrations: AppliedMigration[]; takenAt: Date }> {
  // mkdtemp makes the directory 0700: the dump holds password hashes and sessions.
  const dir = await mkdtemp(path.join(os.tmpdir(), "berth-backup-"));
  const file = path.join(dir, "postgres.ndjson");
  try {
    const out = createWriteStream(file, { mode: 0o600, flags: "wx" });
    const result = await inTransaction(async (tx) => {
      const takenAt = new Date();
      const blobs = await referencedBlobs(tx);
      const migrations = await appliedMigrations(tx);
      await exportLogicalDump(tx, lineWriter(out));
      return { blobs, migrations, takenAt };
    }).finally(() => new Promise<void>((resolve) => out.end(resolve)));
    if (out.errored) throw out.errored;
    return { file, dir, ...result };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

async function snapshotPostgres(db: Db): Promise<Snapshot> {
  const dumped = await dumpToTempFile((run) => db.transaction(run, { isolationLevel: "repeatable read", accessMode: "read only" }));
  const size = (await stat(dumped.file)).size;
  return {
    kind: "postgres",
    takenAt: dumped.takenAt,
    migrations: dumped.migrations,
    blobs: dumped.blobs,
    size,
    read: () => createReadStream(dumped.file),
    discard: () => rm(dumped.dir, { recursive: true, force: true }),
  };
}
