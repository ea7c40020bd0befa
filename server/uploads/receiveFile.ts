// The first stop of every upload: the bytes go straight to the blob store (a single file) or to
// a temporary file (a zip, because yauzl reads the central directory at the end first and needs
// random access). Both count bytes as they arrive and stop reading at the limit.
import { randomUUID } from "node:crypto";
import { mkdir, open, rm } from "node:fs/promises";
import path from "node:path";
import { Transform, type Readable, type TransformCallback } from "node:stream";
import { pipeline } from "node:stream/promises";
import { BlobTooLargeError, type BlobStore, type PutResult } from "../storage/blobStore";
import { PRIVATE_DIR, PRIVATE_FILE } from "../privateFiles";
import { fileTooLarge } from "./errors";

/**
 * Streams one uploaded file into the store. More than `maxBytes` → UploadError file_too_large;
 * the store has then stopped reading and kept nothing.
 */
export async function receiveToBlob(source: Readable, store: BlobStore, maxBytes: number): Promise<PutResult> {
  try {
    return await store.put(source, { maxBytes });
  } catch (error) {
    if (error instanceof BlobTooLargeError) throw fileTooLarge(maxBytes);
    throw error;
  }
}

export interface TempFile {
  path: string;
  size: number;
  /** Deletes the file; safe to call more than once. */
  remove(): Promise<void>;
}

/**
 * Streams `source` into a new file in `dir` (created if missing; readable only by this user).
 * More than `maxBytes` → UploadError file_too_large, and the partial file is deleted; so is it on
 * any other failure. On success the caller owns the file and must call remove().
 */
export async function receiveToTempFile(source: Readable, dir: string, maxBytes: number): Promise<TempFile> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR });
  const file = path.join(dir, `upload-${randomUUID()}.tmp`);
  const remove = () => rm(file, { force: true });
  let size = 0;
  const limit = new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
      size += chunk.length;
      // Failing here makes pipeline() destroy the source: the rest is never read.
      if (size > maxBytes) callback(fileTooLarge(maxBytes));
      else callback(null, chunk);
    },
  });
  // Opened before streaming, so the name exists by the time anything can fail and the clean-up
  // below cannot race a lazy open.
  const handle = await open(file, "wx", PRIVATE_FILE);
  try {
    await pipeline(source, limit, handle.createWriteStream());
  } catch (error) {
    await handle.close().catch(() => undefined);
    await remove();
    throw error;
  }
  return { path: file, size, remove };
}
