// Sending the files a deploy is missing. Large files go one per request (PUT, streamed from disk,
// so memory stays flat however big they are); small ones are packed into tar bodies, many per
// request, because a request each would spend more time on round trips than on bytes
// (planUploads, shared with the dashboard's folder drop). A few requests run at once. Each
// request is safe to repeat, so the client retries it after a dropped connection or a 5xx.
import { createHash } from "node:crypto";
import { createReadStream, readFileSync } from "node:fs";
import { ApiError, CliError } from "./errors";
import type { BerthClient } from "./http";
import {
  BATCH_BYTES,
  BATCH_FILES,
  LARGE_FILE_BYTES,
  planUploads,
  sendWithPublish,
  UPLOAD_CONCURRENCY,
  type UploadJob as SharedUploadJob,
} from "../../common/folderDeploy";
import { tarHeader, tarPadding, TAR_END } from "./tar";
import type { HashedFile } from "./walk";
import { mapLimit } from "./walk";

export { BATCH_BYTES, BATCH_FILES, LARGE_FILE_BYTES, planUploads, sendWithPublish, UPLOAD_CONCURRENCY };

export type UploadJob = SharedUploadJob<HashedFile>;

export interface UploadProgress {
  /** Bytes sent so far, net of tries that were started again. */
  onBytes(delta: number): void;
  onFiles(count: number): void;
}

const changed = (file: HashedFile) => new CliError(`${file.path} changed while it was being deployed: run berth deploy again`);

/** The server found a file's bytes other than listed: it was edited after it was hashed. */
export const changedWhileDeploying = (error: ApiError) =>
  new CliError(`a file changed while it was being deployed (${error.message}): run berth deploy again`);

/**
 * Reads a small file and checks it still has the digest it was listed with. Synchronously, as the
 * walk hashes them: from the page cache a read is a copy, and a batch of 500 files through the
 * thread pool (open, stat, read, close each) kept a first deploy's requests waiting 200 ms.
 */
function readChecked(file: HashedFile): Buffer {
  let data: Buffer;
  try {
    data = readFileSync(file.absolute);
  } catch (error) {
    throw new CliError(`could not read ${file.path}: ${(error as Error).message}`);
  }
  if (createHash("sha256").update(data).digest("hex") !== file.sha256) throw changed(file);
  return data;
}

/** Sends every job, UPLOAD_CONCURRENCY at a time. `base` is the deploy's path, /api/sites/:id/deploys/:deployId. */
export async function runUploads(client: BerthClient, base: string, jobs: UploadJob[], progress: UploadProgress): Promise<void> {
  await mapLimit(jobs, UPLOAD_CONCURRENCY, async (job) => {
    if (job.kind === "batch") await sendBatch(client, base, job.files, progress);
    else await sendFile(client, base, job.file, progress);
  });
}

/** The files as an uncompressed tar whose entries are named by digest, each read and checked first. */
export function digestTar(files: readonly HashedFile[]): Buffer {
  const parts: Buffer[] = [];
  for (const file of files) {
    const data = readChecked(file);
    parts.push(tarHeader(file.sha256, data.length), data, tarPadding(data.length));
  }
  parts.push(TAR_END);
  return Buffer.concat(parts);
}

async function sendBatch(client: BerthClient, base: string, files: HashedFile[], progress: UploadProgress): Promise<void> {
  const body = digestTar(files);
  const bytes = files.reduce((sum, f) => sum + f.size, 0);
  await client.request(`${base}/files`, {
    method: "POST",
    idempotent: true,
    body: () => ({ data: body, type: "application/x-tar", length: body.length }),
  });
  // A batch counts when it has arrived; a few megabytes at most, so the bar still moves smoothly.
  progress.onBytes(bytes);
  progress.onFiles(files.length);
}

async function sendFile(client: BerthClient, base: string, file: HashedFile, progress: UploadProgress): Promise<void> {
  let counted = 0;
  try {
    await client.request(`${base}/files/${file.sha256}`, {
      method: "PUT",
      idempotent: true,
      body: () => {
        // A retry streams the file again: what the failed try counted comes off first.
        progress.onBytes(-counted);
        counted = 0;
        return {
          data: streamOf(file.absolute, (n) => {
            counted += n;
            progress.onBytes(n);
          }),
          type: "application/octet-stream",
          length: file.size,
        };
      },
    });
  } catch (error) {
    // The server hashes what arrives: a file edited since it was hashed here no longer matches.
    if (error instanceof ApiError && (error.code === "digest_mismatch" || error.code === "size_mismatch")) throw changed(file);
    throw error;
  }
  progress.onFiles(1);
}

/** The file's bytes as an async iterable, streamed as a request body. */
async function* streamOf(file: string, onChunk: (bytes: number) => void): AsyncGenerator<Uint8Array> {
  for await (const chunk of createReadStream(file, { highWaterMark: 256 * 1024 })) {
    const bytes = chunk as Buffer;
    onChunk(bytes.length);
    yield bytes;
  }
}
