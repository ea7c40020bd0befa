// The small files of one upload, read into memory and stored in batches (BlobStore.putBuffers):
// a store then syncs a batch's files side by side instead of paying its slowest step once per
// file. One batch is stored while the next is read, so a request holds at most two batches.
import { PutBatchError, type BlobStore, type PutResult } from "../storage/blobStore";
import type { ExtractedFile } from "./archiveLayout";

/** Files up to this size are batched; larger ones stream straight into the store. */
export const BATCHED_FILE_MAX_BYTES = 1024 * 1024;

/** A batch is stored once it holds this many bytes or files. */
const BATCH_BYTES = 4 * 1024 * 1024;
const BATCH_FILES = 256;

export class PutBatcher<T> {
  private pending: { tag: T; data: Buffer }[] = [];
  private pendingBytes = 0;
  private storing: Promise<void> = Promise.resolve();
  private failure: { error: unknown } | undefined;
  private readonly stored: { tag: T; put: PutResult }[] = [];
  /** Every blob a batch placed, those of a batch that failed part-way included. */
  private readonly placed: PutResult[] = [];

  constructor(private readonly store: BlobStore) {}

  /** Queues a file's bytes. When the batch is full, waits for the one before to be stored. */
  async add(tag: T, data: Buffer): Promise<void> {
    this.throwIfFailed();
    this.pending.push({ tag, data });
    this.pendingBytes += data.length;
    if (this.pendingBytes >= BATCH_BYTES || this.pending.length >= BATCH_FILES) await this.flush();
  }

  /** Stores what is queued and waits for every batch: the stored files with their tags, in order. */
  async finish(): Promise<{ tag: T; put: PutResult }[]> {
    await this.flush();
    await this.storing;
    this.throwIfFailed();
    return this.stored;
  }

  /** After a failure: waits for the batch being stored, then gives every blob placed, for the caller to release. */
  async abandon(): Promise<PutResult[]> {
    this.pending = [];
    await this.storing;
    return this.placed;
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    await this.storing;
    this.throwIfFailed();
    if (batch.length === 0) return;
    this.storing = this.store.putBuffers(batch.map((file) => file.data)).then(
      (puts) => {
        puts.forEach((put, i) => this.stored.push({ tag: batch[i]!.tag, put }));
        this.placed.push(...puts);
      },
      (error: unknown) => {
        if (error instanceof PutBatchError) this.placed.push(...error.stored);
        this.failure ??= { error: error instanceof PutBatchError ? error.cause : error };
      },
    );
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure.error;
  }
}

/** An entry's bytes, read whole: at most `size` of them (more is the caller's `tooLong()` error). */
export async function readEntry(body: AsyncIterable<Buffer>, size: number, tooLong: () => Error): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of body) {
    length += chunk.length;
    if (length > size) throw tooLong();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, length);
}

/**
 * For an archive's reader, whose batched files hold their place in `files` by index: fills those
 * places once every batch is stored, and adds the blobs that are new to `created`.
 */
export async function finishArchive(batcher: PutBatcher<number>, files: ExtractedFile[], created: string[]): Promise<void> {
  for (const { tag, put } of await batcher.finish()) {
    if (put.created) created.push(put.sha256);
    files[tag] = { path: files[tag]!.path, ...put };
  }
}

/** After an archive's reader failed: adds the blobs its batches made to `created`, for the caller to delete. */
export async function abandonArchive(batcher: PutBatcher<number>, created: string[]): Promise<void> {
  for (const put of await batcher.abandon()) if (put.created) created.push(put.sha256);
}
