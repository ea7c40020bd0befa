// Writes a backup archive (manifest.ts describes it): the database snapshot first, then the bytes
// of every blob that snapshot refers to, then the secret, the database part and the manifest. A
// daily backup (format 2) puts the blobs into the shared folder instead (sharedBlobs.ts), adding
// only those not there yet, and lists them in the manifest; the rounds below work the same way.
//
// Why copying blobs after the snapshot is safe, and what guards it. A blob's bytes never change
// (its name is their SHA-256), so a copy made later is the copy of the snapshot's blob. But bytes
// do go: when the last row referring to a blob goes (a replaced file, a pruned deployment, a
// purged site, a new avatar), releaseBlobs deletes its row and the caller deletes the bytes right
// after the commit, with no grace period. A blob the snapshot refers to can therefore be gone by
// the time it is copied. Every copy is checked: a blob that is missing makes the backup take a
// new snapshot and copy what that one adds (blobs already in the archive stay; their bytes cannot
// have changed), until one snapshot has all of its blobs. Only blobs created in between need
// copying in a later round, so rounds get short fast. A blob still missing after a few rounds is
// not a race but a store that lost it, and the backup fails naming it rather than writing an
// archive that would restore a row without its bytes. Blobs copied in an earlier round that the
// final snapshot no longer refers to stay in the archive: restored, they are unreferenced bytes,
// the same harmless leftover a crash between commit and delete leaves.
import { randomUUID } from "node:crypto";
import { createWriteStream } from "node:fs";
import { rename, rm } from "node:fs/promises";
import path from "node:path";
import type { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import type { Db } from "../db/client";
import { BlobNotFoundError, type BlobStore } from "../storage/blobStore";
import {
  berthVersion,
  blobPartName,
  DATABASE_PARTS,
  FORMAT,
  FORMAT_VERSION,
  MANIFEST_NAME,
  SECRET_PART,
  SHARED_BLOB_DIR,
  SHARED_FORMAT_VERSION,
  type BackupManifest,
  type Part,
} from "./manifest";
import { takeSnapshot, type BlobRef, type Snapshot } from "./snapshot";
import { tarEnd, tarEntry, type PartDigest } from "./tar";
import { storeSharedBlob, syncDirectory } from "./sharedBlobs";
import { verifyBackup, type VerifyOptions } from "./verifyBackup";

/** Snapshots taken before giving up on blobs that keep disappearing. */
export const MAX_SNAPSHOT_ROUNDS = 5;

export class BackupError extends Error {}

export interface BackupSource {
  db: Db;
  blobs: BlobStore;
  /** The server secret, as the server uses it (BERTH_SECRET, or $BERTH_DATA_DIR/secret). */
  secret: string;
}

export interface BackupOptions {
  /** Stops the backup part-way (the server is shutting down): the write fails with an AbortError. */
  signal?: AbortSignal;
  /** Tests: runs after each snapshot, before its blobs are copied. */
  afterSnapshot?: (round: number, snapshot: Snapshot) => Promise<void>;
}

async function openBlob(store: BlobStore, ref: BlobRef): Promise<{ size: number; stream: Readable } | undefined> {
  try {
    const size = ref.size ?? (await store.stat(ref.sha256))?.size;
    if (size === undefined) return undefined;
    return { size, stream: await store.get(ref.sha256) };
  } catch (error) {
    if (error instanceof BlobNotFoundError) return undefined;
    throw error;
  }
}

/** Blobs missing from the store after the last round: the store lost them. */
function missingError(missing: string[]): BackupError {
  return new BackupError(
    `${missing.length} blob(s) the database refers to are missing from the blob store (${missing.slice(0, 3).join(", ")}${missing.length > 3 ? ", …" : ""}).`,
  );
}

const damagedError = (sha256: string) => new BackupError(`The blob ${sha256} does not hold the bytes its name says: the blob store is damaged.`);

/**
 * The archive's chunks. Without `sharedDir`, every blob is an entry (format 1). With it, each blob
 * goes into that shared folder unless it is there already, and the archive lists them (format 2).
 */
async function* archiveChunks(
  source: BackupSource,
  options: BackupOptions,
  finished: (manifest: BackupManifest) => void,
  sharedDir?: string,
): AsyncGenerator<Buffer> {
  const parts: Part[] = [];
  const inArchive = new Set<string>();
  /** Format 2: the size of every blob known to be in the shared folder. */
  const shared = new Map<string, number>();
  let blobBytes = 0;
  let digest: PartDigest | undefined;
  const record = (name: string) => (d: PartDigest) => {
    digest = d;
    parts.push({ name, ...d });
  };

  for (let round = 1; ; round++) {
    const snapshot = await takeSnapshot(source.db);
    try {
      await options.afterSnapshot?.(round, snapshot);
      const missing: string[] = [];
      for (const ref of snapshot.blobs) {
        if (sharedDir !== undefined) {
          if (shared.has(ref.sha256)) continue;
          const stored = await storeSharedBlob(sharedDir, source.blobs, ref);
          if (stored.kind === "missing") missing.push(ref.sha256);
          else if (stored.kind === "damaged") throw damagedError(ref.sha256);
          else shared.set(ref.sha256, stored.size);
          continue;
        }
        if (inArchive.has(ref.sha256)) continue;
        const blob = await openBlob(source.blobs, ref);
        if (!blob) {
          missing.push(ref.sha256);
          continue;
        }
        try {
          yield* tarEntry(blobPartName(ref.sha256), blob.size, blob.stream, record(blobPartName(ref.sha256)), snapshot.takenAt);
        } finally {
          // Closes the file or request when the archive's reader went away mid-entry.
          blob.stream.destroy();
        }
        if (digest!.sha256 !== ref.sha256) throw damagedError(ref.sha256);
        inArchive.add(ref.sha256);
        blobBytes += blob.size;
      }
      if (missing.length > 0) {
        if (round < MAX_SNAPSHOT_ROUNDS) continue;
        throw missingError(missing);
      }

      const secret = Buffer.from(`${source.secret}\n`);
      yield* tarEntry(SECRET_PART, secret.length, secret, record(SECRET_PART), snapshot.takenAt);
      const databasePart = DATABASE_PARTS[snapshot.kind];
      yield* tarEntry(databasePart, snapshot.size, snapshot.read(), record(databasePart), snapshot.takenAt);

      const common = {
        format: FORMAT,
        berthVersion: berthVersion(),
        createdAt: snapshot.takenAt.toISOString(),
        database: { kind: snapshot.kind, part: databasePart, migrations: snapshot.migrations },
        parts,
      };
      let manifest: BackupManifest;
      if (sharedDir === undefined) {
        manifest = { ...common, formatVersion: FORMAT_VERSION, blobs: { count: inArchive.size, bytes: blobBytes } };
      } else {
        // The final snapshot's blobs only: those an earlier round copied and this one no longer
        // refers to are not this backup's, and go when the shared folder is pruned.
        const list = snapshot.blobs.map((ref) => ({ sha256: ref.sha256, size: shared.get(ref.sha256)! }));
        const bytes = list.reduce((sum, blob) => sum + blob.size, 0);
        manifest = { ...common, formatVersion: SHARED_FORMAT_VERSION, blobs: { count: list.length, bytes, dir: SHARED_BLOB_DIR, list } };
      }
      const json = Buffer.from(`${JSON.stringify(manifest, null, 1)}\n`);
      yield* tarEntry(MANIFEST_NAME, json.length, json, () => {}, snapshot.takenAt);
      yield tarEnd();
      finished(manifest);
      return;
    } finally {
      await snapshot.discard();
    }
  }
}

/** Writes a gzipped, self-contained backup archive (format 1) into `out` and ends it. */
export async function writeBackup(source: BackupSource, out: Writable, options: BackupOptions = {}): Promise<BackupManifest> {
  return pipeArchive((finished) => archiveChunks(source, options, finished), out, options);
}

/**
 * Writes a daily backup's archive (format 2) into `out`: the blobs go into `sharedDir` (see
 * sharedBlobs.ts), each only if it is not there already, and the archive lists them.
 */
export async function writeSharedBackup(
  source: BackupSource,
  sharedDir: string,
  out: Writable,
  options: BackupOptions = {},
): Promise<BackupManifest> {
  return pipeArchive((finished) => archiveChunks(source, options, finished, sharedDir), out, options);
}

async function pipeArchive(
  chunks: (finished: (manifest: BackupManifest) => void) => AsyncGenerator<Buffer>,
  out: Writable,
  options: BackupOptions,
): Promise<BackupManifest> {
  let manifest: BackupManifest | undefined;
  await pipeline(
    chunks((m) => (manifest = m)),
    createGzip(),
    out,
    options.signal ? { signal: options.signal } : {},
  );
  return manifest!;
}

/**
 * Produces `file` whole or not at all: the archive is written under a temporary name beside it
 * (mode 0600: it holds the secret and every password hash), flushed, read back and verified as a
 * restore would, and only then renamed into place. Returns the verified manifest. `verify` is
 * passed on to verifyBackup: the daily backup checks its shared blobs' sizes, not their bytes,
 * since it has just checked the bytes of those it added.
 */
export async function writeBackupFile(file: string, produce: (out: Writable) => Promise<unknown>, verify?: VerifyOptions): Promise<BackupManifest> {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomUUID().slice(0, 8)}.partial`);
  const out = createWriteStream(temp, { mode: 0o600, flags: "wx", flush: true });
  try {
    await produce(out);
    const manifest = await verifyBackup(temp, verify);
    await rename(temp, file);
    await syncDirectory(path.dirname(file));
    return manifest;
  } catch (error) {
    // A failure can come before the file is even open; removing it then would leave it behind.
    out.destroy();
    if (!out.closed) await new Promise<void>((resolve) => out.once("close", () => resolve()));
    await rm(temp, { force: true });
    throw error;
  }
}
