// Unpacks an uploaded .tar.gz into the blob store as it streams in, under the same rules as a zip
// (extractZip.ts): real bytes counted against the limits, traversal, absolute paths, links,
// devices and duplicates refused, and on any failure the blobs this call created deleted again.
// The compressed stream is bounded too, so neither a large upload nor a small bomb gets past the
// limits before it is refused.
import { Readable, Transform, type TransformCallback } from "node:stream";
import { createGunzip } from "node:zlib";
import { BlobTooLargeError, type BlobStore, type PutResult } from "../storage/blobStore";
import { validateSitePath } from "../../common/uploads";
import { arrange, type ExtractedArchive, type ExtractedFile } from "./archiveLayout";
import { fileTooLarge, quotaExceeded, tarError, UploadError, zipError } from "./errors";
import type { ZipExtractLimits } from "./limits";
import { abandonArchive, BATCHED_FILE_MAX_BYTES, finishArchive, PutBatcher, readEntry } from "./putBatcher";
import { readTarEntries, TarFormatError, type TarEntryType } from "./tarReader";
import { isJunk } from "./zipEntry";

/** Headers and padding beyond the files' bytes that the unpacked stream may hold (1.5 KB an entry). */
const TAR_OVERHEAD_PER_ENTRY = 1536;

/**
 * `source` is the .tar.gz as it arrives; `maxCompressedBytes` bounds it (a plan's largest file,
 * as for a zip). `discard` deletes the blobs created when it fails (see extractZip).
 */
export async function extractTarGz(
  source: Readable,
  store: BlobStore,
  limits: ZipExtractLimits & { maxCompressedBytes: number },
  discard: (created: string[]) => Promise<unknown>,
): Promise<ExtractedArchive> {
  const compressed = byteLimit(limits.maxCompressedBytes, () => fileTooLarge(limits.maxCompressedBytes));
  const gunzip = createGunzip();
  const maxUnpacked = limits.maxTotalBytes + limits.maxEntries * TAR_OVERHEAD_PER_ENTRY;
  const unpacked = byteLimit(maxUnpacked, () => zipError.tooLarge(limits.maxTotalBytes));
  // Errors travel down the chain: whichever stage fails first is what the reader throws.
  source.on("error", (error) => compressed.destroy(error));
  compressed.on("error", (error) => gunzip.destroy(error));
  gunzip.on("error", (error) => unpacked.destroy(error instanceof UploadError ? error : tarError.invalid(`gzip: ${error.message}`)));
  source.pipe(compressed).pipe(gunzip).pipe(unpacked);
  const created: string[] = [];
  try {
    const { files, folders } = await readEntries(unpacked, store, limits, created);
    return arrange(files, folders);
  } catch (error) {
    await discard(created).catch(() => undefined);
    throw error instanceof TarFormatError ? tarError.invalid(error.message) : error;
  } finally {
    // Stops reading a body the reader gave up on; the route drains what the client still sends.
    unpacked.destroy();
    source.unpipe(compressed);
  }
}

async function readEntries(
  source: AsyncIterable<Buffer>,
  store: BlobStore,
  limits: ZipExtractLimits,
  created: string[],
): Promise<{ files: ExtractedFile[]; folders: Set<string> }> {
  const totalBudget = Math.min(limits.maxTotalBytes, limits.quotaBytes ?? Infinity);
  const files: ExtractedFile[] = [];
  const paths = new Set<string>();
  const folders = new Set<string>();
  let unpacked = 0;
  let count = 0;
  // Small entries are read whole and stored in batches (putBatcher.ts); each keeps its place in
  // `files`, filled in once its batch is stored.
  const batcher = new PutBatcher<number>(store);
  try {
    for await (const entry of readTarEntries(source)) {
      count += 1;
      if (count > limits.maxEntries) throw zipError.tooManyEntries(limits.maxEntries);
      const path = tarEntryPath(entry.name, entry.type);
      if (path === undefined || isJunk(path)) continue;
      if (entry.type === "directory") {
        folders.add(path);
        continue;
      }
      if (paths.has(path)) throw zipError.duplicate(path);
      paths.add(path);
      // The header states the size: refuse before reading a byte of it.
      const budgetLeft = totalBudget - unpacked;
      if (entry.size > limits.maxFileBytes) throw zipError.fileTooLarge(entry.name, limits.maxFileBytes);
      if (entry.size > budgetLeft) throw overBudget(limits);
      const tooLong = () => tarError.invalid(`${entry.name} is longer than its header says`);
      if (entry.size <= BATCHED_FILE_MAX_BYTES) {
        const data = await readEntry(entry.body, entry.size, tooLong);
        unpacked += data.length;
        files.push({ path, sha256: "", size: data.length, created: false });
        await batcher.add(files.length - 1, data);
        continue;
      }
      let put: PutResult;
      try {
        put = await store.put(Readable.from(entry.body), { maxBytes: entry.size });
      } catch (error) {
        if (error instanceof BlobTooLargeError) throw tooLong();
        throw error;
      }
      if (put.created) created.push(put.sha256);
      unpacked += put.size;
      files.push({ path, ...put });
    }
    await finishArchive(batcher, files, created);
  } catch (error) {
    await abandonArchive(batcher, created);
    throw error;
  }
  return { files, folders };
}

function overBudget(limits: ZipExtractLimits): UploadError {
  if (limits.quotaBytes !== undefined && limits.quotaBytes < limits.maxTotalBytes) return quotaExceeded(limits.planStorageBytes ?? limits.quotaBytes);
  return zipError.tooLarge(limits.maxTotalBytes);
}

/**
 * The entry's site path, or undefined for the archive's own top folder ("." or "./"). One leading
 * "./" goes (what `tar -C dir .` writes); links and devices are refused by name; anything that is
 * not a safe relative path (absolute, "..", backslashes, control characters) is refused.
 */
export function tarEntryPath(name: string, type: TarEntryType): string | undefined {
  if (type === "symlink") throw zipError.symlink(name);
  if (type === "hardlink") throw tarError.hardLink(name);
  if (type === "special") throw zipError.specialFile(name);
  let path = name.startsWith("./") ? name.slice(2) : name;
  if (type === "directory") {
    if (path === "" || path === ".") return undefined;
    if (path.endsWith("/")) path = path.slice(0, -1);
  }
  const checked = validateSitePath(path);
  if (!checked.ok) throw zipError.unsafePath(name, checked.error);
  return checked.path;
}

/** Passes bytes through until more than `max` have come, then fails with `refusal()`. */
function byteLimit(max: number, refusal: () => Error): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
      seen += chunk.length;
      if (seen > max) callback(refusal());
      else callback(null, chunk);
    },
  });
}
