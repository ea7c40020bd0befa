// Picks the blob store for this process: the bucket when BERTH_S3_BUCKET is set, so that several
// nodes share one set of blobs; otherwise files inside the data directory.
import path from "node:path";
import type { Env } from "../env";
import type { BlobStore, TempSweeper } from "./blobStore";
import { createFsBlobStore, type FsBlobStoreOptions } from "./fs";
import { createS3BlobStore } from "./s3";

/** `fs`: the file store's options (the server passes the native addon's filesystem sync). */
export function createBlobStore(env: Pick<Env, "s3">, dataDir: string, fs: FsBlobStoreOptions = {}): BlobStore & TempSweeper {
  return env.s3 ? createS3BlobStore(env.s3) : createFsBlobStore(path.join(dataDir, "blobs"), fs);
}
