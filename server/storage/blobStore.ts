// Content-addressed blob storage: every blob is named by the SHA-256 of its bytes, so identical
// files are stored once and a deployment's manifest can point at blobs that never change.
// Two implementations (fs.ts, s3.ts) pass the same suite (server/test/storage/blobStore.suite.ts).
import type { FileHandle } from "node:fs/promises";
import type { Readable } from "node:stream";

export interface PutResult {
  sha256: string;
  size: number;
  /** False when a blob with these bytes already existed: the caller must not delete it on rollback. */
  created: boolean;
}

export interface BlobInfo {
  sha256: string;
  size: number;
  modifiedAt: Date;
}

export interface BlobStore extends TempSweeper {
  /**
   * Streams `source` into the store, hashing as the bytes arrive. Never buffers the whole blob.
   * Throws BlobTooLargeError as soon as more than `maxBytes` arrive; nothing is left behind.
   * When the bytes are already stored, their modification time becomes now (see deleteIfOlderThan).
   */
  put(source: Readable, options: { maxBytes: number }): Promise<PutResult>;
  /**
   * Stores blobs whose bytes are already in memory (the small files of an upload), all of them
   * durable when this resolves, with results in the order given. Putting them together lets a
   * store share its slow steps among them: the file store syncs them side by side rather than one
   * after another. When any fails it throws a PutBatchError naming the ones it stored.
   */
  putBuffers(buffers: readonly Buffer[]): Promise<PutResult[]>;
  /** The blob's bytes, or the inclusive byte range [start, end]. Throws BlobNotFoundError. */
  get(sha256: string, range?: { start: number; end: number }): Promise<Readable>;
  /**
   * Stores that keep blobs as local files only: the blob's open file, for the edge to read into
   * buffers it reuses (no stream, no fresh buffer per chunk). The caller closes it. Throws
   * BlobNotFoundError.
   */
  openFile?(sha256: string): Promise<FileHandle>;
  /**
   * Stores that keep blobs as local files only: where the blob's file is (it may not exist). The
   * daily backup hard-links it rather than copying (backup/sharedBlobs.ts); a stored blob's file
   * is never written in place, so a link keeps its bytes after the store deletes its own name.
   */
  filePath?(sha256: string): string;
  /**
   * Stores that keep blobs as local files only: the whole blob, read at once on the calling thread.
   * For the edge's small bodies: from the page cache such a read takes microseconds, where the
   * thread pool's trips (open, stat, read, close) cost more than the request they serve. Throws
   * BlobNotFoundError.
   */
  readSync?(sha256: string): Buffer;
  stat(sha256: string): Promise<BlobInfo | undefined>;
  /**
   * Of these digests, the ones the store does not hold (each once). An upload asks this under the
   * blobs' locks, before it records them: a release elsewhere may have deleted bytes its put found.
   */
  missing(shas: readonly string[]): Promise<string[]>;
  delete(sha256: string): Promise<void>;
  /**
   * For the orphan sweeper: deletes the blob unless it was written after `cutoff`. A put of bytes
   * the store already holds counts as a write (it makes the blob young again), so an upload that
   * is about to record a blob nothing referred to keeps it. Resolves to whether it went.
   */
  deleteIfOlderThan(sha256: string, cutoff: Date): Promise<boolean>;
  /** Every blob, for the garbage sweeper. */
  list(): AsyncIterable<BlobInfo>;
}

export class BlobTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`The file is larger than the limit of ${maxBytes} bytes`);
  }
}

/** A putBuffers() that failed part-way: `stored` are the blobs it placed, for the caller to release. */
export class PutBatchError extends Error {
  constructor(
    readonly stored: PutResult[],
    cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
  }
}

export class BlobNotFoundError extends Error {
  constructor(readonly sha256: string) {
    super(`No blob ${sha256}`);
  }
}

export const SHA256_PATTERN = /^[0-9a-f]{64}$/;

/** A blob name that is not 64 lowercase hex digits. Stores refuse it before it can reach a path or key. */
export class InvalidSha256Error extends Error {
  constructor(readonly value: string) {
    super(`Not a SHA-256 hex digest: ${JSON.stringify(value.slice(0, 80))}`);
  }
}

/** Blob names become file paths and object keys, so anything else (such as `../..`) is refused here. */
export function assertSha256(value: string): void {
  if (!SHA256_PATTERN.test(value)) throw new InvalidSha256Error(value);
}

/**
 * Both stores write a blob under a temporary name first. A crash mid-upload leaves that temporary
 * behind; a periodic sweep removes the ones old enough that no upload can still own them.
 */
export interface TempSweeper {
  /** Removes temporaries last modified more than `olderThanMs` ago; resolves to how many went. */
  removeStaleTemp(olderThanMs: number): Promise<number>;
}

/** Refuses a range no store could answer the same way, before it reaches a file or a request. */
export function assertRange({ start, end }: { start: number; end: number }): void {
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start) {
    throw new RangeError(`Invalid byte range ${start}-${end}`);
  }
}
