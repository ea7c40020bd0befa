// Blobs as files: `<dir>/ab/cd/<sha256>`. The two-level fan-out keeps every directory small enough
// for fast lookups however many blobs there are. Uploads land in `<dir>/tmp/` first, on the same
// filesystem, so that moving a finished blob into place is a single atomic link or rename.
import { createHash, randomUUID } from "node:crypto";
import {
  closeSync,
  createWriteStream,
  existsSync,
  fsync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  utimesSync,
  writeSync,
} from "node:fs";
import { open, readdir, rename, rm, stat, type FileHandle } from "node:fs/promises";
import { getSystemErrorName, promisify } from "node:util";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  assertRange,
  assertSha256,
  BlobNotFoundError,
  SHA256_PATTERN,
  type BlobInfo,
  type BlobStore,
  PutBatchError,
  type PutResult,
  type TempSweeper,
} from "./blobStore";
import { eachLimit } from "./eachLimit";
import { createMeter } from "./meter";
import { PRIVATE_DIR, PRIVATE_FILE } from "../privateFiles";

const FAN_OUT = /^[0-9a-f]{2}$/;

const MAX_READ_BYTES = 1024 * 1024;
const MIN_READ_BYTES = 16 * 1024;

/** syncfs(2) on the filesystem holding `fd`: 0, or -errno (the native addon's call). */
export type FilesystemSync = (fd: number) => Promise<number>;

export interface FsBlobStoreOptions {
  /**
   * How a batch (putBuffers) becomes durable: with a filesystem sync (the native addon's syncfs,
   * which the composition root passes in where it is built), two calls for the whole batch, its
   * bytes then its names; without one, an fsync per file and per folder.
   */
  syncFilesystem?: FilesystemSync;
}

export function createFsBlobStore(dir: string, options: FsBlobStoreOptions = {}): BlobStore & TempSweeper {
  const tmpDir = path.join(dir, "tmp");
  const filesystemSync = options.syncFilesystem;

  const blobPath = (sha256: string) => {
    assertSha256(sha256);
    return path.join(dir, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  };

  const openFile = (sha256: string): Promise<FileHandle> =>
    open(blobPath(sha256), "r").catch((error: unknown) => {
      throw isMissing(error) ? new BlobNotFoundError(sha256) : error;
    });

  return {
    async put(source: Readable, { maxBytes }: { maxBytes: number }): Promise<PutResult> {
      ensureDirectory(tmpDir);
      const tmpPath = path.join(tmpDir, randomUUID());
      const meter = createMeter(maxBytes);
      // flush: fsync before close, because the database will point at this blob as soon as
      // put() returns, so its bytes must survive a power cut before its name does.
      const sink = createWriteStream(tmpPath, { flags: "wx", flush: true, mode: PRIVATE_FILE });
      try {
        await pipeline(source, meter.stream, sink);
        const { sha256, size } = meter.result();
        const finalPath = blobPath(sha256);
        ensureDirectory(path.dirname(finalPath));
        const created = placeOnce(tmpPath, finalPath);
        await syncDirectory(path.dirname(finalPath));
        return { sha256, size, created };
      } finally {
        // pipeline() can reject (a failing source) while the sink is still opening; removing the
        // temp file before its open() completes would leave it behind, so wait for the close.
        if (!sink.closed) await new Promise<void>((resolve) => sink.once("close", () => resolve()));
        await rm(tmpPath, { force: true });
      }
    },

    async putBuffers(buffers: readonly Buffer[]): Promise<PutResult[]> {
      ensureDirectory(tmpDir);
      const items = buffers.map((data) => {
        const sha256 = createHash("sha256").update(data).digest("hex");
        return { data, sha256, finalPath: blobPath(sha256), tmpPath: path.join(tmpDir, randomUUID()), fd: -1, hasTemp: false, created: false };
      });
      const firstOf = new Map<string, (typeof items)[number]>();
      for (const item of items) if (!firstOf.has(item.sha256)) firstOf.set(item.sha256, item);
      const unique = [...firstOf.values()];
      const placed: (typeof items)[number][] = [];
      // Opened before the batch's first write: syncfs reports a failed write-back only when it
      // happened after the descriptor it is given was opened.
      const root = filesystemSync ? openSync(dir, "r") : -1;
      try {
        // The phases of put(), each over the whole batch, and only the syncs wait for the disk.
        // The rest is a copy into the page cache or a name in a directory, done in a row on this
        // thread: 10-40 ms for a batch of 256 small files, against twice the wall time when every
        // step took a trip through the thread pool.
        for (const item of unique) {
          item.fd = openSync(item.tmpPath, "wx", PRIVATE_FILE);
          item.hasTemp = true;
          writeWholeSync(item.fd, item.data);
        }
        // The bytes are durable before any final name exists, so a power cut never leaves a
        // name over bytes that were not written. One syncfs is one journal commit for the
        // batch; an fsync per file forces one each, shared only when they happen to coincide.
        if (filesystemSync) {
          for (const item of unique) closeOnce(item);
          await syncWhole(filesystemSync, root);
        } else {
          await eachLimit(unique, (item) => fsyncAsync(item.fd));
          for (const item of unique) closeOnce(item);
        }
        for (const item of unique) {
          ensureDirectory(path.dirname(item.finalPath));
          item.created = placeOnce(item.tmpPath, item.finalPath);
          placed.push(item);
        }
        if (filesystemSync) await syncWhole(filesystemSync, root);
        else await eachLimit([...new Set(placed.map((item) => path.dirname(item.finalPath)))], syncDirectory);
      } catch (error) {
        throw new PutBatchError(
          placed.map(({ sha256, data, created }) => ({ sha256, size: data.length, created })),
          error,
        );
      } finally {
        // The blob has its own name now (or failed to get one): the temporary one goes.
        for (const item of unique) {
          closeOnce(item);
          if (item.hasTemp) unlinkIfPresent(item.tmpPath);
        }
        if (root >= 0) closeSync(root);
      }
      // A digest given twice is stored by its first copy; the others found it there.
      return items.map((item) => ({ sha256: item.sha256, size: item.data.length, created: item === firstOf.get(item.sha256) && item.created }));
    },

    openFile,

    filePath: blobPath,

    readSync(sha256: string): Buffer {
      try {
        return readFileSync(blobPath(sha256));
      } catch (error) {
        throw isMissing(error) ? new BlobNotFoundError(sha256) : error;
      }
    },

    async get(sha256: string, range?: { start: number; end: number }): Promise<Readable> {
      if (range) assertRange(range);
      // Opening first turns a missing blob into a rejection here rather than a later stream error.
      const handle = await openFile(sha256);
      // Reads of up to 1 MiB keep large files to few big writes; a small file gets a buffer its own
      // size, since every read allocates a whole highWaterMark (1 MiB per 5 KB file would churn
      // the garbage collector when the edge loads many small files).
      const length = range
        ? range.end - range.start + 1
        : (
            await handle.stat().catch(async (error: unknown) => {
              await handle.close();
              throw error;
            })
          ).size;
      const highWaterMark = Math.min(MAX_READ_BYTES, Math.max(MIN_READ_BYTES, length));
      return handle.createReadStream({ start: range?.start, end: range?.end, highWaterMark });
    },

    async stat(sha256: string): Promise<BlobInfo | undefined> {
      try {
        const info = await stat(blobPath(sha256));
        return { sha256, size: info.size, modifiedAt: info.mtime };
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },

    async missing(shas: readonly string[]): Promise<string[]> {
      // Looked up in a row on this thread: a name in a cached directory takes microseconds, where
      // a stat through the thread pool costs a round trip, and an upload asks while it holds the
      // blobs' locks (and, on the embedded database, the only connection).
      return [...new Set(shas)].filter((sha256) => !existsSync(blobPath(sha256)));
    },

    async delete(sha256: string): Promise<void> {
      await rm(blobPath(sha256), { force: true });
    },

    async deleteIfOlderThan(sha256: string, cutoff: Date): Promise<boolean> {
      // Moved aside first, then judged: a put that touches the blob before the move is seen in
      // the moved file's time (and the blob goes back), one after it finds no blob and writes it
      // anew. Either way the bytes an upload is about to record stay.
      const finalPath = blobPath(sha256);
      ensureDirectory(tmpDir);
      const aside = path.join(tmpDir, `sweep-${randomUUID()}`);
      try {
        await rename(finalPath, aside);
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
      try {
        if ((await stat(aside)).mtimeMs <= cutoff.getTime()) return true;
        placeOnce(aside, finalPath);
        return false;
      } finally {
        await rm(aside, { force: true });
      }
    },

    async *list(): AsyncGenerator<BlobInfo> {
      for (const first of await subdirectories(dir)) {
        for (const second of await subdirectories(path.join(dir, first))) {
          const leaf = path.join(dir, first, second);
          for (const name of (await readdirIfPresent(leaf)).sort()) {
            if (!SHA256_PATTERN.test(name) || !name.startsWith(first + second)) continue;
            try {
              const info = await stat(path.join(leaf, name));
              if (info.isFile()) yield { sha256: name, size: info.size, modifiedAt: info.mtime };
            } catch (error) {
              // Deleted between readdir and stat: it is simply no longer a blob.
              if (!isMissing(error)) throw error;
            }
          }
        }
      }
    },

    removeStaleTemp: (olderThanMs: number) => removeStaleTempFiles(dir, olderThanMs),
  };
}

/**
 * Removes files in `<dir>/tmp/` last modified more than `olderThanMs` ago: what a crash or a kill
 * in the middle of an upload leaves behind. Pick an age longer than the slowest upload allowed.
 */
export async function removeStaleTempFiles(dir: string, olderThanMs: number, now = Date.now()): Promise<number> {
  const tmpDir = path.join(dir, "tmp");
  let removed = 0;
  for (const name of await readdirIfPresent(tmpDir)) {
    const file = path.join(tmpDir, name);
    try {
      const info = await stat(file);
      if (now - info.mtimeMs <= olderThanMs) continue;
      await rm(file, { force: true, recursive: true });
      removed += 1;
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
  }
  return removed;
}

/**
 * Gives the finished temp file its final name unless that name already exists. link() fails with
 * EEXIST instead of replacing, so of two concurrent puts of the same bytes exactly one reports
 * created: true — the flag callers rely on to know whether a rollback may delete the blob.
 * Synchronous: a name in a directory is a few microseconds' work, less than a trip through the
 * thread pool.
 */
function placeOnce(tmpPath: string, finalPath: string): boolean {
  try {
    linkSync(tmpPath, finalPath);
    return true;
  } catch (error) {
    if (errorCode(error) === "EEXIST") {
      // The bytes are here already, perhaps as an orphan the sweeper is about to take: make the
      // blob young again so that it stays for the grace period; gone meanwhile, place it anew.
      if (touch(finalPath)) return false;
      return placeOnce(tmpPath, finalPath);
    }
    if (!["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS"].includes(errorCode(error) ?? "")) throw error;
  }
  // Filesystems without hard links (FAT, some network mounts): rename is still atomic, but two
  // racing puts may then both report created: true.
  if (existsSync(finalPath) && touch(finalPath)) return false;
  renameSync(tmpPath, finalPath);
  return true;
}

/** Sets the file's times to now; false when it does not exist. */
function touch(file: string): boolean {
  const now = new Date();
  try {
    utimesSync(file, now, now);
    return true;
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
}

function unlinkIfPresent(file: string): void {
  try {
    unlinkSync(file);
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
}

/** Creates the directory and its parents, owner-only, unless it exists (the usual case: one stat). */
function ensureDirectory(directory: string): void {
  if (!existsSync(directory)) mkdirSync(directory, { recursive: true, mode: PRIVATE_DIR });
}

function writeWholeSync(fd: number, data: Buffer): void {
  for (let offset = 0; offset < data.length;) offset += writeSync(fd, data, offset);
}

/** Closes the item's temporary file if it is open. */
function closeOnce(item: { fd: number }): void {
  if (item.fd < 0) return;
  const fd = item.fd;
  item.fd = -1;
  closeSync(fd);
}

const fsyncAsync = promisify(fsync);

/** Syncs the filesystem that holds `fd`; a failure throws as fs calls do (code ENOSPC, EIO…). */
async function syncWhole(sync: FilesystemSync, fd: number): Promise<void> {
  const result = await sync(fd);
  if (result >= 0) return;
  const code = getSystemErrorName(result);
  throw Object.assign(new Error(`${code}: the blob store's filesystem could not be synced`), { code, errno: result, syscall: "syncfs" });
}

async function syncDirectory(directory: string): Promise<void> {
  // Makes the new name durable on Linux; some platforms cannot open a directory, and there the
  // rename's own guarantees are all there is. Opening and closing are quick; only the sync goes
  // to the thread pool.
  let fd: number;
  try {
    fd = openSync(directory, "r");
  } catch {
    return; // Best effort by design (see above).
  }
  try {
    await fsyncAsync(fd);
  } catch {
    // Best effort by design (see above).
  } finally {
    closeSync(fd);
  }
}

async function subdirectories(parent: string): Promise<string[]> {
  return (await readdirIfPresent(parent)).filter((name) => FAN_OUT.test(name)).sort();
}

async function readdirIfPresent(directory: string): Promise<string[]> {
  try {
    return await readdir(directory);
  } catch (error) {
    if (isMissing(error) || errorCode(error) === "ENOTDIR") return [];
    throw error;
  }
}

function errorCode(error: unknown): string | undefined {
  return error instanceof Error && "code" in error && typeof error.code === "string" ? error.code : undefined;
}

const isMissing = (error: unknown) => errorCode(error) === "ENOENT";
