// The daily backups' shared folder of blobs, `$BERTH_DATA_DIR/backups/blobs/ab/cd/<sha256>` (the
// blob store's own layout). A blob's bytes never change, so the seven daily archives need one copy
// of each between them: a day's backup adds the blobs that are new since the day before, and
// pruning removes those no kept archive lists (daily.ts), so the folder holds exactly what the kept
// backups need.
//
// A blob arrives under a temporary name in `tmp/`, is checked against its name (SHA-256 and size),
// flushed and only then renamed into place, so a name in the folder always holds its whole bytes,
// whatever a crash interrupts. From the local blob store it is a hard link when the folders share
// a filesystem: the cheapest correct copy, since Berth never writes into a stored blob (it only adds
// and deletes them, and a deletion leaves the link's bytes in place). Otherwise (another
// filesystem, an S3 bucket) the bytes are copied.
import { createHash, randomUUID } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { link, mkdir, open, readdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { BlobNotFoundError, SHA256_PATTERN, type BlobStore } from "../storage/blobStore";
import { PRIVATE_DIR, PRIVATE_FILE } from "../privateFiles";
import { SHARED_BLOB_DIR, type SharedBlob } from "./manifest";

const FAN_OUT = /^[0-9a-f]{2}$/;
const TEMP_DIR = "tmp";
/** Link errors that mean "no hard link here", not "something is wrong": copy instead. */
const NO_LINK = new Set(["EXDEV", "EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS", "EMLINK"]);

/** The shared folder that belongs to the archives in `backupDir`. */
export const sharedBlobDir = (backupDir: string) => path.join(backupDir, SHARED_BLOB_DIR);

export function sharedBlobPath(dir: string, sha256: string): string {
  if (!SHA256_PATTERN.test(sha256)) throw new Error(`Not a SHA-256 hex digest: ${JSON.stringify(sha256.slice(0, 80))}`);
  return path.join(dir, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
}

export type StoreSharedResult =
  | { kind: "present" | "added"; size: number }
  /** The blob store no longer has the blob (deleted since the snapshot, or lost). */
  | { kind: "missing" }
  /** The store's bytes are not the blob its name says: the store is damaged. */
  | { kind: "damaged" };

const code = (error: unknown) => (error as NodeJS.ErrnoException | undefined)?.code;

async function sizeOf(file: string): Promise<number | undefined> {
  try {
    const info = await stat(file);
    return info.isFile() ? info.size : undefined;
  } catch (error) {
    if (code(error) === "ENOENT" || code(error) === "ENOTDIR") return undefined;
    throw error;
  }
}

export async function syncDirectory(directory: string): Promise<void> {
  try {
    const handle = await open(directory, "r");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Some platforms cannot open a directory; the rename's own guarantees are all there is there.
  }
}

/** Hashes `file`: its size and SHA-256. */
async function digestOf(file: string): Promise<{ size: number; sha256: string }> {
  const hash = createHash("sha256");
  let size = 0;
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    size += chunk.length;
    hash.update(chunk);
  }
  return { size, sha256: hash.digest("hex") };
}

/** Links the store's file to `temp`: true when linked, false when the store has no such file, undefined when linking is not possible here. */
async function linkFrom(store: BlobStore, sha256: string, temp: string): Promise<boolean | undefined> {
  if (!store.filePath) return undefined;
  try {
    await link(store.filePath(sha256), temp);
    return true;
  } catch (error) {
    if (code(error) === "ENOENT") return false;
    if (NO_LINK.has(code(error) ?? "")) return undefined;
    throw error;
  }
}

/** Copies the blob from the store into `temp`, flushed to disk; false when the store has no such blob. */
async function copyFrom(store: BlobStore, sha256: string, temp: string): Promise<boolean> {
  let source: Readable;
  try {
    source = await store.get(sha256);
  } catch (error) {
    if (error instanceof BlobNotFoundError) return false;
    throw error;
  }
  const sink = createWriteStream(temp, { flags: "wx", flush: true, mode: PRIVATE_FILE });
  try {
    await pipeline(source, sink);
  } finally {
    // The caller removes the temporary file; it must be closed first or its removal can race the open.
    if (!sink.closed) await new Promise<void>((resolve) => sink.once("close", () => resolve()));
  }
  return true;
}

/**
 * Makes sure the shared folder holds the blob `ref`: present already with the expected size, or
 * added now from `store`. `size` is the blobs table's (null when the blob has no row there).
 */
export async function storeSharedBlob(dir: string, store: BlobStore, ref: { sha256: string; size: number | null }): Promise<StoreSharedResult> {
  const final = sharedBlobPath(dir, ref.sha256);
  const present = await sizeOf(final);
  // A file of the wrong size is damaged (a disk error, a hand edit): it is replaced below.
  if (present !== undefined && (ref.size === null || present === ref.size)) return { kind: "present", size: present };

  const tempDir = path.join(dir, TEMP_DIR);
  await mkdir(tempDir, { recursive: true, mode: PRIVATE_DIR });
  const temp = path.join(tempDir, randomUUID());
  try {
    const got = (await linkFrom(store, ref.sha256, temp)) ?? (await copyFrom(store, ref.sha256, temp));
    if (!got) return { kind: "missing" };
    // Read back what is about to be named: a link is checked as much as a copy.
    const digest = await digestOf(temp);
    if (digest.sha256 !== ref.sha256 || (ref.size !== null && digest.size !== ref.size)) return { kind: "damaged" };
    await mkdir(path.dirname(final), { recursive: true, mode: PRIVATE_DIR });
    await rename(temp, final);
    await syncDirectory(path.dirname(final));
    return { kind: "added", size: digest.size };
  } finally {
    await rm(temp, { force: true });
  }
}

/** Removes what an interrupted run left under a temporary name. Only the daily backup writes here. */
export async function removeSharedTemp(dir: string): Promise<void> {
  await rm(path.join(dir, TEMP_DIR), { recursive: true, force: true });
}

async function subdirectories(parent: string): Promise<string[]> {
  try {
    return (await readdir(parent)).filter((name) => FAN_OUT.test(name)).sort();
  } catch (error) {
    if (code(error) === "ENOENT" || code(error) === "ENOTDIR") return [];
    throw error;
  }
}

/** Every blob in the shared folder, with its file's size. Files that are not blobs are skipped. */
export async function* listSharedBlobs(dir: string): AsyncGenerator<SharedBlob & { file: string }> {
  for (const first of await subdirectories(dir)) {
    for (const second of await subdirectories(path.join(dir, first))) {
      const leaf = path.join(dir, first, second);
      for (const name of (await readdir(leaf)).sort()) {
        if (!SHA256_PATTERN.test(name) || !name.startsWith(first + second)) continue;
        const file = path.join(leaf, name);
        const size = await sizeOf(file);
        if (size !== undefined) yield { sha256: name, size, file };
      }
    }
  }
}

/** Deletes every blob of the shared folder that `needed` does not name. */
export async function pruneSharedBlobs(dir: string, needed: ReadonlySet<string>): Promise<{ count: number; bytes: number }> {
  let count = 0;
  let bytes = 0;
  for await (const blob of listSharedBlobs(dir)) {
    if (needed.has(blob.sha256)) continue;
    await rm(blob.file, { force: true });
    count += 1;
    bytes += blob.size;
  }
  return { count, bytes };
}

export interface SharedCheck {
  /** Listed, but no file. */
  missing: string[];
  /** Listed, but the file's size (or, when digests are checked, its SHA-256) is not the listed one. */
  damaged: string[];
}

/** Checks that the shared folder holds every listed blob: its file, its size and, with `digests`, its bytes. */
export async function checkSharedBlobs(dir: string, list: readonly SharedBlob[], options: { digests: boolean }): Promise<SharedCheck> {
  const result: SharedCheck = { missing: [], damaged: [] };
  for (const blob of list) {
    const file = sharedBlobPath(dir, blob.sha256);
    const size = await sizeOf(file);
    if (size === undefined) result.missing.push(blob.sha256);
    else if (size !== blob.size) result.damaged.push(blob.sha256);
    else if (options.digests) {
      const digest = await digestOf(file).catch((error: unknown) => {
        if (code(error) === "ENOENT") return undefined;
        throw error;
      });
      if (!digest) result.missing.push(blob.sha256);
      else if (digest.sha256 !== blob.sha256 || digest.size !== blob.size) result.damaged.push(blob.sha256);
    }
  }
  return result;
}

/** Streams a shared blob's bytes (restore checks them as they pass). */
export function readSharedBlob(dir: string, sha256: string): Readable {
  return createReadStream(sharedBlobPath(dir, sha256));
}
