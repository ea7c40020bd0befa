// Picks the blob store for this process: the bucket when BERTH_S3_BUCKET is set, so that several
// nodes share one set of blobs; otherwise files inside the data directory.
import path from "node:path";
import type { Env } from "../env";
import type { BlobStore, TempSweeper } from "./blobStore";
import { createFsBlobStore } from "./fs";
import { createS3BlobStore } from "./s3";

export function createBlobStore(env: Pick<Env, "s3">, dataDir: string): BlobStore & TempSweeper {
  return env.s3 ? createS3BlobStore(env.s3) : createFsBlobStore(path.join(dataDir, "blobs"));
}
