// Runs the BlobStore suite against s3rver, a real S3 server on a loopback port, so the SDK's
// requests, ranges, multipart uploads and error shapes are the real ones.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { CreateBucketCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeBlobStore } from "../test/storage/blobStore.suite";
import { createS3BlobStore, type S3BlobStoreOptions } from "./s3";

// The SDK warns once per process that its 2027 releases will need Node 22; that is for the
// operator to read, not for every test run.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = "true";

const BUCKET = "berth-test";
let server: S3rver;
let serverDir: string;
let options: S3BlobStoreOptions;
let admin: S3Client;
let counter = 0;

beforeAll(async () => {
  serverDir = mkdtempSync(path.join(os.tmpdir(), "berth-s3rver-"));
  // Port 0 lets the OS pick a free port; s3rver's own default (4568) may be taken.
  server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory: serverDir });
  const { port } = await server.run();
  options = {
    bucket: BUCKET,
    endpoint: `http://127.0.0.1:${port}`,
    region: "us-east-1",
    // s3rver checks signatures against this fixed key pair.
    accessKeyId: "S3RVER",
    secretAccessKey: "S3RVER",
  };
  admin = new S3Client({ ...options, forcePathStyle: true, credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } });
  await admin.send(new CreateBucketCommand({ Bucket: BUCKET }));
});

afterAll(async () => {
  admin?.destroy();
  await server?.close();
  if (serverDir) rmSync(serverDir, { recursive: true, force: true });
});

async function keysUnder(prefix: string): Promise<string[]> {
  const page = await admin.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }));
  return (page.Contents ?? []).map((object) => object.Key!.slice(prefix.length));
}

// Each test gets its own prefix in the one bucket, so list() sees only that test's blobs.
describeBlobStore("s3 (s3rver)", async () => {
  const prefix = `run-${++counter}/`;
  return {
    store: createS3BlobStore({ ...options, prefix }),
    cleanup: async () => {},
    temporaries: () => keysUnder(`${prefix}tmp/`),
  };
});

describe("createS3BlobStore", () => {
  it("keeps blobs under ${prefix}blobs/<sha256>", async () => {
    const store = createS3BlobStore({ ...options, prefix: "layout/" });
    const { sha256 } = await store.put(Readable.from([Buffer.from("where am I")]), { maxBytes: 100 });
    expect(await keysUnder("layout/")).toEqual([`blobs/${sha256}`]);
  });

  it("works at the bucket's root without a prefix", async () => {
    const store = createS3BlobStore(options);
    const { sha256 } = await store.put(Readable.from([Buffer.from("at the root")]), { maxBytes: 100 });
    expect(await store.stat(sha256)).toMatchObject({ size: 11 });
    await store.delete(sha256);
  });

  it("ignores keys under its prefix that are not blobs", async () => {
    const store = createS3BlobStore({ ...options, prefix: "strays/" });
    await admin.send(new PutObjectCommand({ Bucket: BUCKET, Key: "strays/blobs/readme.txt", Body: "not a blob" }));
    const listed = [];
    for await (const blob of store.list()) listed.push(blob);
    expect(listed).toEqual([]);
  });

  it("removes stale temporaries", async () => {
    const store = createS3BlobStore({ ...options, prefix: "sweep/" });
    await admin.send(new PutObjectCommand({ Bucket: BUCKET, Key: "sweep/tmp/crashed", Body: "partial" }));
    expect(await store.removeStaleTemp(60 * 60 * 1000)).toBe(0);
    // s3rver's LastModified has one-second resolution.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await store.removeStaleTemp(0)).toBe(1);
    expect(await keysUnder("sweep/tmp/")).toEqual([]);
  });
});
