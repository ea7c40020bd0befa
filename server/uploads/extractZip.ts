// Unpacks an uploaded zip into the blob store, entry by entry, refusing the whole archive at the
// first entry that is unsafe or over a limit. Blobs are the staging area: nothing points at them
// until the caller records the result, and on any failure the blobs this call created are
// deleted again, so a refused archive leaves nothing behind.
import { Transform, type Readable, type TransformCallback } from "node:stream";
import { crc32 } from "node:zlib";
import yauzl, { type Entry, type ZipFile } from "yauzl";
import { BlobTooLargeError, type BlobStore } from "../storage/blobStore";
import { quotaExceeded, zipError } from "./errors";
import { abandonArchive, BATCHED_FILE_MAX_BYTES, finishArchive, PutBatcher, readEntry } from "./putBatcher";
import type { ZipExtractLimits } from "./limits";
import { arrange, type ExtractedArchive, type ExtractedFile } from "./archiveLayout";
import { entryKind, entryName, entryPath, isJunk } from "./zipEntry";

export type { ExtractedArchive, ExtractedFile };

/**
 * `discard` deletes the blobs this call created when it fails. Another upload of the same bytes
 * may have recorded them meanwhile, so the server passes one that checks (stageUpload.ts); the
 * default deletes them outright, for callers nothing else shares the store with.
 */
export async function extractZip(
  zipFile: string,
  store: BlobStore,
  limits: ZipExtractLimits,
  discard: (created: string[]) => Promise<unknown> = (created) => Promise.all(created.map((sha256) => store.delete(sha256))),
): Promise<ExtractedArchive> {
  const zip = await openZip(zipFile);
  // Resolves once the file descriptor is really closed: close() only drops our reference, and
  // the descriptor goes when the last entry stream lets go of it too.
  const closed = new Promise<void>((resolve) => zip.once("close", () => resolve()));
  // A late error (closing the descriptor, a stream we already gave up on) must not become an
  // unhandled "error" event; every error that matters reaches us through a promise.
  zip.on("error", () => undefined);
  const created: string[] = [];
  try {
    const result = await readEntries(zip, store, limits, created);
    return arrange(result.files, result.folders);
  } catch (error) {
    // Best effort: a blob that cannot be deleted now is unreferenced, and the sweeper takes it.
    await discard(created).catch(() => undefined);
    throw toUploadError(error);
  } finally {
    zip.close();
    await closed;
  }
}

async function openZip(zipFile: string): Promise<ZipFile> {
  // decodeStrings is off so that names are decoded and judged in zipEntry.ts with the same
  // functions yauzl uses (getFileNameLowLevel, validateFileName), but with a refusal that names
  // the entry instead of an anonymous error halfway through the directory.
  return fromArchive(() =>
    yauzl.openPromise(zipFile, {
      lazyEntries: true,
      autoClose: false,
      decodeStrings: false,
      validateEntrySizes: true,
      strictFileNames: true,
    }),
  );
}

interface Collected {
  files: ExtractedFile[];
  folders: Set<string>;
}

async function readEntries(zip: ZipFile, store: BlobStore, limits: ZipExtractLimits, created: string[]): Promise<Collected> {
  // The central directory states its entry count up front: refuse before reading any entry.
  if (zip.entryCount > limits.maxEntries) throw zipError.tooManyEntries(limits.maxEntries);
  const totalBudget = Math.min(limits.maxTotalBytes, limits.quotaBytes ?? Infinity);
  const files: ExtractedFile[] = [];
  const paths = new Set<string>();
  const folders = new Set<string>();
  let unpacked = 0;
  // Small entries are read whole and stored in batches (putBatcher.ts); each keeps its place in
  // `files`, filled in once its batch is stored.
  const batcher = new PutBatcher<number>(store);

  const entries = zip.eachEntry();
  try {
    for (;;) {
      const next = await fromArchive(() => entries.next());
      if (next.done === true) break;
      const entry = next.value;
      const name = entryName(entry);
      const kind = entryKind(entry, name);
      if (kind === "symlink") throw zipError.symlink(name);
      if (kind === "special") throw zipError.specialFile(name);
      const path = entryPath(name, kind);
      if (isJunk(path)) continue;
      if (kind === "directory") {
        folders.add(path);
        continue;
      }
      if (entry.isEncrypted()) throw zipError.encrypted(name);
      if (!entry.canDecodeFileData()) throw zipError.unsupportedMethod(name, entry.compressionMethod);
      if (paths.has(path)) throw zipError.duplicate(path);
      paths.add(path);

      // Whichever bound is nearer is the store's limit for this entry, so the store itself stops
      // reading the moment the actual bytes (not the header's claim) cross it.
      const budgetLeft = totalBudget - unpacked;
      const maxBytes = Math.min(limits.maxFileBytes, budgetLeft);
      try {
        if (entry.uncompressedSize <= BATCHED_FILE_MAX_BYTES) {
          // yauzl holds the entry to its stated size, so this reads at most 1 MiB.
          const data = await readEntryStream(zip, entry, (stream) => readEntry(stream, maxBytes, () => new BlobTooLargeError(maxBytes)));
          unpacked += data.length;
          files.push({ path, sha256: "", size: data.length, created: false });
          await batcher.add(files.length - 1, data);
          continue;
        }
        const put = await readEntryStream(zip, entry, (stream) => store.put(stream, { maxBytes }));
        if (put.created) created.push(put.sha256);
        unpacked += put.size;
        files.push({ path, ...put });
      } catch (error) {
        if (!(error instanceof BlobTooLargeError)) throw error;
        if (limits.maxFileBytes <= budgetLeft) throw zipError.fileTooLarge(name, limits.maxFileBytes);
        if (limits.quotaBytes !== undefined && limits.quotaBytes < limits.maxTotalBytes)
          throw quotaExceeded(limits.planStorageBytes ?? limits.quotaBytes);
        throw zipError.tooLarge(limits.maxTotalBytes);
      }
    }
    await finishArchive(batcher, files, created);
  } catch (error) {
    await abandonArchive(batcher, created);
    throw error;
  }
  return { files, folders };
}

/** Marks a failure that comes from the archive's bytes (bad deflate data, lying size, CRC). */
class DamagedEntryError extends Error {}

/** Gives `consume` the entry's bytes, checked against the entry's CRC-32; damage is reported as such. */
async function readEntryStream<T>(zip: ZipFile, entry: Entry, consume: (stream: Readable) => Promise<T>): Promise<T> {
  const raw = await fromArchive(() => zip.openReadStreamPromise(entry));
  const verified = verifyCrc(entry.crc32);
  let damaged: DamagedEntryError | undefined;
  raw.on("error", (error: Error) => {
    if (!isSystemError(error)) damaged = new DamagedEntryError(error.message);
    verified.destroy(damaged ?? error);
  });
  verified.on("error", (error) => {
    if (error instanceof DamagedEntryError) damaged = error;
  });
  raw.pipe(verified);
  try {
    return await consume(verified);
  } catch (error) {
    // The store may report a source failure in its own words; what we saw on the source wins.
    if (damaged && !(error instanceof BlobTooLargeError)) throw damaged;
    throw error;
  } finally {
    // Releases the entry's hold on the zip's file descriptor whether or not the store read it all.
    raw.destroy();
    verified.destroy();
  }
}

/** yauzl checks sizes but not CRCs; a mismatch means the archive is damaged. */
function verifyCrc(expected: number): Transform {
  let crc = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
      crc = crc32(chunk, crc);
      callback(null, chunk);
    },
    flush(callback: TransformCallback) {
      callback(crc === expected ? null : new DamagedEntryError("CRC-32 mismatch"));
    },
  });
}

/**
 * Runs one yauzl step. What yauzl or zlib raises means the archive is not a zip we can read, so
 * it becomes zip_invalid; operating-system errors (a `syscall` is set) are ours, not the user's,
 * and pass through unchanged.
 */
async function fromArchive<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    throw error instanceof Error && !isSystemError(error) ? zipError.invalid(error.message) : error;
  }
}

function isSystemError(error: Error): boolean {
  return "syscall" in error;
}

/** Refusals pass through as they are; damaged entry data is an invalid archive; the rest is ours. */
function toUploadError(error: unknown): unknown {
  if (error instanceof DamagedEntryError) return zipError.invalid(error.message);
  return error;
}
