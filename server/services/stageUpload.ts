// Receives one uploaded file into the blob store before anything is recorded: a single file
// becomes one blob, a zip (when it is to be unpacked) becomes one blob per entry. Nothing points
// at the blobs yet; discard() deletes the ones this upload created if the caller gives up, unless
// another upload of the same bytes has recorded them meanwhile (deleteUnreferencedBytes).
import path from "node:path";
import type { Readable } from "node:stream";
import { contentTypeFor, isAllowedUpload, isZipUpload, validateSitePath } from "../../common/uploads";
import { byteLimit, type Plan } from "../../common/plans";
import type { AppContext } from "../context";
import { fileTooLarge, invalidName, quotaExceeded, unsupportedType, UploadError } from "../uploads/errors";
import { extractZip } from "../uploads/extractZip";
import { zipLimitsFor } from "../uploads/limits";
import { receiveToBlob, receiveToTempFile } from "../uploads/receiveFile";
import type { NewFile } from "../db/repositories/siteFiles";
import { deleteUnreferencedBytes } from "./releaseBlobs";

export interface IncomingFile {
  filename: string;
  mimetype: string;
  stream: Readable;
}

export interface StagedUpload {
  /** Paths relative to the folder the upload goes into. */
  files: NewFile[];
  folders: string[];
  /** Bytes of the new blobs: the most this upload can add to the account's storage. */
  newBytes: number;
  /** The blobs of `files` the store no longer holds: the commit asks, under the blobs' locks. */
  missingBlobs(): Promise<string[]>;
  discard(): Promise<void>;
}

/**
 * `tmpDir` holds a zip while it is unpacked: the data directory's own tmp/, owner-only like the
 * rest of it and swept of what a crash leaves there (never the shared system temp directory).
 */
export async function stageUpload(
  ctx: Pick<AppContext, "db" | "blobs">,
  incoming: IncomingFile,
  options: { extractZip: boolean; plan: Plan; usedBytes: number; tmpDir: string },
): Promise<StagedUpload> {
  const { filename, mimetype, stream } = incoming;
  const name = validateSitePath(path.posix.basename(filename.replace(/\\/g, "/")));
  if (!name.ok) {
    stream.resume();
    throw invalidName(name.error);
  }
  if (!isAllowedUpload(name.path, mimetype)) {
    stream.resume();
    throw unsupportedType();
  }
  const storageBytes = byteLimit(options.plan.storageBytes);
  const maxFileBytes = byteLimit(options.plan.maxFileBytes);
  const quotaLeft = Math.max(0, storageBytes - options.usedBytes);
  const store = ctx.blobs;
  const discard = (shas: string[]) => deleteUnreferencedBytes(ctx, shas);

  if (options.extractZip && isZipUpload(name.path, mimetype)) {
    const temp = await receiveToTempFile(stream, options.tmpDir, maxFileBytes);
    try {
      const archive = await extractZip(temp.path, store, zipLimitsFor(options.plan, options.usedBytes), discard);
      const created = archive.files.filter((f) => f.created);
      return {
        files: archive.files.map((f) => ({ path: f.path, sha256: f.sha256, size: f.size, contentType: contentTypeFor(f.path) })),
        folders: archive.folders,
        newBytes: created.reduce((sum, f) => sum + f.size, 0),
        missingBlobs: () => store.missing(archive.files.map((f) => f.sha256)),
        discard: () => discard(created.map((f) => f.sha256)),
      };
    } finally {
      await temp.remove();
    }
  }

  const limit = Math.min(maxFileBytes, quotaLeft);
  try {
    const blob = await receiveToBlob(stream, store, limit);
    return {
      files: [{ path: name.path, sha256: blob.sha256, size: blob.size, contentType: contentTypeFor(name.path) }],
      folders: [],
      newBytes: blob.created ? blob.size : 0,
      missingBlobs: () => store.missing([blob.sha256]),
      discard: () => discard(blob.created ? [blob.sha256] : []),
    };
  } catch (error) {
    // When the account's remaining storage was the tighter bound, say so instead of "file too large".
    if (error instanceof UploadError && error.code === "file_too_large" && quotaLeft < maxFileBytes) throw quotaExceeded(storageBytes);
    if (error instanceof UploadError) throw error.code === "file_too_large" ? fileTooLarge(limit) : error;
    throw error;
  }
}
