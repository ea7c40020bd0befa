// Blobs as objects in any S3-compatible bucket: `${prefix}blobs/<sha256>`. An upload's name is
// only known once its last byte has been hashed, so it is first written to `${prefix}tmp/<uuid>`
// and then copied to its final key. CopyObject handles objects up to 5 GB; past that it would need
// a multipart copy, which Berth does not need while its largest file is 250 MB.
//
// Aborted multipart uploads leave parts behind if the abort itself fails; give the bucket a
// lifecycle rule that aborts incomplete multipart uploads after a day or so.
import { createHash, randomUUID } from "node:crypto";
import { createRequire } from "node:module";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type * as S3Sdk from "@aws-sdk/client-s3";
import type { S3ClientConfig } from "@aws-sdk/client-s3";
import type * as S3Uploads from "@aws-sdk/lib-storage";
import {
  assertRange,
  assertSha256,
  BlobNotFoundError,
  PutBatchError,
  SHA256_PATTERN,
  type BlobInfo,
  type BlobStore,
  type PutResult,
  type TempSweeper,
} from "./blobStore";
import { eachLimit } from "./eachLimit";
import { createMeter } from "./meter";

export interface S3BlobStoreOptions {
  bucket: string;
  /** For MinIO, R2, s3rver and the like; unset means AWS. */
  endpoint?: string | undefined;
  region: string;
  /** Unset: the SDK's default chain (environment, profile, instance role). */
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
  sessionToken?: string | undefined;
  /** Defaults to true when an endpoint is given, since most S3-compatible servers need it. */
  forcePathStyle?: boolean | undefined;
  /** Prepended to every key as is, e.g. "berth/". */
  prefix?: string | undefined;
}

// lib-storage holds up to queueSize parts in memory at once, plus the one being filled: with
// these numbers an upload costs at most about 24 MB of memory whatever the file's size.
const PART_SIZE = 8 * 1024 * 1024;
const QUEUE_SIZE = 2;
// How often to look again when S3 says another writer is placing the same key right now.
const PLACE_ATTEMPTS = 3;

// The SDK is loaded by the processes that use a bucket, not by every one: about 18 MB of memory.
const load = createRequire(import.meta.url);
let loaded: { sdk: typeof S3Sdk; uploads: typeof S3Uploads } | undefined;
function s3(): { sdk: typeof S3Sdk; uploads: typeof S3Uploads } {
  return (loaded ??= { sdk: load("@aws-sdk/client-s3") as typeof S3Sdk, uploads: load("@aws-sdk/lib-storage") as typeof S3Uploads });
}

export function createS3BlobStore(options: S3BlobStoreOptions): BlobStore & TempSweeper {
  const {
    sdk: { CopyObjectCommand, DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, S3Client, paginateListObjectsV2 },
    uploads: { Upload },
  } = s3();
  const { bucket } = options;
  const prefix = options.prefix ?? "";
  const client = new S3Client(clientConfig(options));
  const blobsPrefix = `${prefix}blobs/`;
  const tmpPrefix = `${prefix}tmp/`;

  const blobKey = (sha256: string) => {
    assertSha256(sha256);
    return blobsPrefix + sha256;
  };

  const deleteKey = async (key: string) => {
    await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
  };

  const head = async (key: string) => {
    try {
      return await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  };

  const copy = (tempKey: string, finalKey: string, ifNoneMatch?: "*") =>
    client.send(
      new CopyObjectCommand({
        Bucket: bucket,
        Key: finalKey,
        CopySource: `${bucket}/${tempKey.split("/").map(encodeURIComponent).join("/")}`,
        IfNoneMatch: ifNoneMatch,
      }),
    );

  /** Copies the finished temporary object to its final key unless that key already exists. */
  const placeOnce = async (tempKey: string, finalKey: string): Promise<boolean> => {
    for (let attempt = 1; ; attempt++) {
      if (await head(finalKey)) {
        // Same bytes, so copying over them changes nothing but LastModified: the blob becomes
        // young again and an orphan sweep in the grace period leaves it to this upload.
        await copy(tempKey, finalKey);
        return false;
      }
      try {
        // IfNoneMatch makes the copy conditional on AWS, so that of two racing puts only one
        // reports created: true. Servers that ignore it (s3rver, older MinIO) overwrite the key
        // with identical bytes, which is harmless apart from both reporting created: true.
        await copy(tempKey, finalKey, "*");
        return true;
      } catch (error) {
        if (statusOf(error) === 412) return false;
        if (statusOf(error) !== 409 || attempt >= PLACE_ATTEMPTS) throw error;
      }
    }
  };

  const storePut = async (source: Readable, { maxBytes }: { maxBytes: number }): Promise<PutResult> => {
    const meter = createMeter(maxBytes);
    const tempKey = tmpPrefix + randomUUID();
    const upload = new Upload({
      client,
      params: { Bucket: bucket, Key: tempKey, Body: meter.stream, ContentType: "application/octet-stream" },
      partSize: PART_SIZE,
      queueSize: QUEUE_SIZE,
    });
    const [piped, uploaded] = await Promise.allSettled([
      pipeline(source, meter.stream),
      upload.done().catch((error: unknown) => {
        // The upload stopped reading: release the pipeline (and the source) instead of letting
        // them wait on backpressure forever.
        meter.stream.destroy(error instanceof Error ? error : new Error(String(error)));
        throw error;
      }),
    ]);
    if (piped.status === "rejected" || uploaded.status === "rejected") {
      await deleteKey(tempKey).catch(() => {});
      // The stream's error says why (too large, or the client went away). lib-storage reports
      // whatever failed last, which is its AbortMultipartUpload when the server refuses that.
      throw piped.status === "rejected" ? piped.reason : (uploaded as PromiseRejectedResult).reason;
    }
    const { sha256, size } = meter.result();
    try {
      const created = await placeOnce(tempKey, blobKey(sha256));
      return { sha256, size, created };
    } finally {
      // A temporary that outlives this is only garbage; removeStaleTemp() collects it.
      await deleteKey(tempKey).catch(() => {});
    }
  };

  return {
    put: storePut,

    async putBuffers(buffers: readonly Buffer[]): Promise<PutResult[]> {
      // Side by side, each a request of its own whose time is mostly the round trip; a digest
      // given twice is sent once.
      const shas = buffers.map((buffer) => createHash("sha256").update(buffer).digest("hex"));
      const first = new Map<string, number>();
      shas.forEach((sha256, i) => {
        if (!first.has(sha256)) first.set(sha256, i);
      });
      const stored = new Map<string, PutResult>();
      try {
        await eachLimit([...first.values()], async (i) => {
          const put = await storePut(Readable.from([buffers[i]!]), { maxBytes: buffers[i]!.length });
          stored.set(put.sha256, put);
        });
      } catch (error) {
        throw new PutBatchError([...stored.values()], error);
      }
      return shas.map((sha256, i) => {
        const put = stored.get(sha256)!;
        return first.get(sha256) === i ? put : { ...put, created: false };
      });
    },

    async get(sha256: string, range?: { start: number; end: number }): Promise<Readable> {
      const key = blobKey(sha256);
      if (range) assertRange(range);
      try {
        const response = await client.send(
          new GetObjectCommand({
            Bucket: bucket,
            Key: key,
            Range: range ? `bytes=${range.start}-${range.end}` : undefined,
          }),
        );
        if (!(response.Body instanceof Readable)) throw new Error("The S3 client returned a body that is not a Node stream");
        if (!range) return response.Body;
        // Some servers answer a range with more than was asked for: s3rver reads "bytes=0-0" as the
        // whole object, and a few gateways ignore Range altogether. Cut the answer down to size.
        const served = /^bytes (\d+)-/.exec(response.ContentRange ?? "");
        const servedStart = served ? Number(served[1]) : 0;
        const wanted = range.end - range.start + 1;
        if (servedStart === range.start && (response.ContentLength ?? 0) <= wanted) return response.Body;
        return Readable.from(slice(response.Body, range.start - servedStart, wanted));
      } catch (error) {
        if (isMissing(error)) throw new BlobNotFoundError(sha256);
        throw error;
      }
    },

    async stat(sha256: string): Promise<BlobInfo | undefined> {
      const response = await head(blobKey(sha256));
      if (!response) return undefined;
      return { sha256, size: response.ContentLength ?? 0, modifiedAt: response.LastModified ?? new Date(0) };
    },

    async missing(shas: readonly string[]): Promise<string[]> {
      // A HEAD each, a few at a time: a zip of 10,000 files is 10,000 requests.
      const missing: string[] = [];
      await eachLimit([...new Set(shas)], async (sha256) => {
        if (!(await head(blobKey(sha256)))) missing.push(sha256);
      });
      return missing;
    },

    async delete(sha256: string): Promise<void> {
      await deleteKey(blobKey(sha256));
    },

    async deleteIfOlderThan(sha256: string, cutoff: Date): Promise<boolean> {
      // S3 has no conditional delete by date: a put that refreshes the blob between the HEAD and
      // the DELETE loses it. The grace period makes that a put of bytes unreferenced for that
      // long landing within milliseconds of the sweep.
      const found = await head(blobKey(sha256));
      if (!found || (found.LastModified?.getTime() ?? 0) > cutoff.getTime()) return false;
      await deleteKey(blobKey(sha256));
      return true;
    },

    async *list(): AsyncGenerator<BlobInfo> {
      for await (const page of paginateListObjectsV2({ client }, { Bucket: bucket, Prefix: blobsPrefix })) {
        for (const object of page.Contents ?? []) {
          const name = object.Key?.slice(blobsPrefix.length) ?? "";
          if (!SHA256_PATTERN.test(name)) continue;
          yield { sha256: name, size: object.Size ?? 0, modifiedAt: object.LastModified ?? new Date(0) };
        }
      }
    },

    async removeStaleTemp(olderThanMs: number): Promise<number> {
      let removed = 0;
      const cutoff = Date.now() - olderThanMs;
      for await (const page of paginateListObjectsV2({ client }, { Bucket: bucket, Prefix: tmpPrefix })) {
        for (const object of page.Contents ?? []) {
          if (!object.Key || (object.LastModified?.getTime() ?? 0) >= cutoff) continue;
          await deleteKey(object.Key);
          removed += 1;
        }
      }
      return removed;
    },
  };
}

function clientConfig(options: S3BlobStoreOptions): S3ClientConfig {
  const config: S3ClientConfig = {
    region: options.region,
    forcePathStyle: options.forcePathStyle ?? options.endpoint !== undefined,
  };
  if (options.endpoint) {
    config.endpoint = options.endpoint;
    // Not every S3-compatible server understands the CRC32 checksums the SDK adds to every
    // request by default, so send them only where an operation requires one.
    config.requestChecksumCalculation = "WHEN_REQUIRED";
    config.responseChecksumValidation = "WHEN_REQUIRED";
  }
  if (options.accessKeyId && options.secretAccessKey) {
    config.credentials = {
      accessKeyId: options.accessKeyId,
      secretAccessKey: options.secretAccessKey,
      sessionToken: options.sessionToken,
    };
  }
  return config;
}

/** `length` bytes of `body` after skipping `skip`; stops (and closes `body`) once they have passed. */
async function* slice(body: Readable, skip: number, length: number): AsyncGenerator<Buffer> {
  let toSkip = skip;
  let left = length;
  for await (const chunk of body) {
    let bytes = chunk as Buffer;
    if (toSkip > 0) {
      const skipped = Math.min(toSkip, bytes.length);
      bytes = bytes.subarray(skipped);
      toSkip -= skipped;
    }
    if (bytes.length === 0) continue;
    const taken = bytes.subarray(0, left);
    left -= taken.length;
    yield taken;
    // Leaving the loop early destroys `body`, so the rest is never downloaded.
    if (left === 0) return;
  }
}

function isMissing(error: unknown): boolean {
  const { NoSuchKey, NotFound } = s3().sdk;
  return error instanceof NoSuchKey || error instanceof NotFound;
}

function statusOf(error: unknown): number | undefined {
  return error instanceof s3().sdk.S3ServiceException ? error.$metadata.httpStatusCode : undefined;
}
