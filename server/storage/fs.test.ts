import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { describeBlobStore, sha256Of } from "../test/storage/blobStore.suite";
import { syncFilesystem } from "../test/storage/filesystemSync";
import { BlobNotFoundError, PutBatchError } from "./blobStore";
import { createFsBlobStore, removeStaleTempFiles, type FilesystemSync, type FsBlobStoreOptions } from "./fs";
import { isOutOfSpace } from "./outOfSpace";

const tempDir = () => mkdtempSync(path.join(os.tmpdir(), "berth-blobs-"));

// The shared suite over a file store in a new directory, made with `options`.
const describeFsStore = (name: string, options: FsBlobStoreOptions) =>
  describeBlobStore(name, async () => {
    const dir = tempDir();
    return {
      store: createFsBlobStore(dir, options),
      cleanup: async () => rmSync(dir, { recursive: true, force: true }),
      temporaries: async () => (existsSync(path.join(dir, "tmp")) ? readdirSync(path.join(dir, "tmp")) : []),
    };
  });

// As the server makes it: a batch made durable with the native addon's syncfs.
describeFsStore("fs", { syncFilesystem });
// Without the native addon (off Linux, no C compiler) a batch is made durable file by file.
describeFsStore("fs, an fsync per file", {});

describe("a batch made durable by syncing the filesystem", () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  const files = (n: number) => Array.from({ length: n }, (_, i) => Buffer.from(`file ${i}`));
  const temporaries = () => readdirSync(path.join(dir, "tmp"));

  it("is there on Linux, where the server passes it in, so the fast path cannot be off unnoticed", () => {
    if (process.platform !== "linux") return;
    expect(syncFilesystem, "the native addon's syncFilesystem did not load").toBeTypeOf("function");
  });

  it("syncs twice for the whole batch: its bytes, then its names", async () => {
    const calls: number[] = [];
    const counting: FilesystemSync = async (fd) => {
      calls.push(fd);
      return syncFilesystem ? syncFilesystem(fd) : 0;
    };
    const store = createFsBlobStore(dir, { syncFilesystem: counting });
    const results = await store.putBuffers(files(50));
    expect(calls).toHaveLength(2);
    expect(results.every((r) => r.created)).toBe(true);
    expect(store.readSync!(results[7]!.sha256).toString()).toBe("file 7");
    expect(temporaries()).toEqual([]);
  });

  it("names nothing when the bytes could not be synced, and leaves no temporary file", async () => {
    const store = createFsBlobStore(dir, { syncFilesystem: async () => -5 });
    const error = await store.putBuffers(files(3)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PutBatchError);
    expect((error as PutBatchError).stored).toEqual([]);
    expect(((error as PutBatchError).cause as NodeJS.ErrnoException).code).toBe("EIO");
    expect(await store.missing(files(3).map(sha256Of))).toHaveLength(3);
    expect(temporaries()).toEqual([]);
  });

  it("reports the blobs it named when the names could not be synced, as out of space when it was", async () => {
    let call = 0;
    const store = createFsBlobStore(dir, { syncFilesystem: async () => (++call === 2 ? -28 : 0) });
    const error = await store.putBuffers(files(3)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PutBatchError);
    expect((error as PutBatchError).stored.map((s) => s.sha256).sort()).toEqual(files(3).map(sha256Of).sort());
    expect(isOutOfSpace(error)).toBe(true);
    expect(temporaries()).toEqual([]);
  });
});

describe("createFsBlobStore", () => {
  let dir: string;
  beforeEach(() => {
    dir = tempDir();
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it("fans blobs out over two directory levels", async () => {
    const bytes = Buffer.from("fan out");
    const sha = sha256Of(bytes);
    await createFsBlobStore(dir).put(Readable.from([bytes]), { maxBytes: 100 });
    expect(existsSync(path.join(dir, sha.slice(0, 2), sha.slice(2, 4), sha))).toBe(true);
  });

  it("reads a whole blob on the calling thread, and names a missing one", async () => {
    const store = createFsBlobStore(dir);
    const bytes = Buffer.from("read now");
    const { sha256 } = await store.put(Readable.from([bytes]), { maxBytes: 100 });
    expect(store.readSync!(sha256)).toEqual(bytes);
    expect(() => store.readSync!("0".repeat(64))).toThrow(BlobNotFoundError);
    expect(() => store.readSync!("../../etc/passwd")).toThrow();
  });

  it("reports created: true to exactly one of several racing puts", async () => {
    const store = createFsBlobStore(dir);
    const bytes = Buffer.alloc(100_000, 1);
    const results = await Promise.all([1, 2, 3, 4].map(() => store.put(Readable.from([bytes]), { maxBytes: bytes.length })));
    expect(results.filter((r) => r.created)).toHaveLength(1);
  });

  it("lists only blobs: temporaries and stray files are not blobs", async () => {
    const store = createFsBlobStore(dir);
    const { sha256 } = await store.put(Readable.from([Buffer.from("real")]), { maxBytes: 100 });
    const other = sha256Of(Buffer.from("misplaced"));
    mkdirSync(path.join(dir, "tmp"), { recursive: true });
    writeFileSync(path.join(dir, "tmp", other), "partial");
    mkdirSync(path.join(dir, "00", "00"), { recursive: true });
    writeFileSync(path.join(dir, "00", "00", other), "in the wrong directory");
    writeFileSync(path.join(dir, "00", "00", "notes.txt"), "");
    writeFileSync(path.join(dir, "README"), "");
    const listed = [];
    for await (const blob of store.list()) listed.push(blob.sha256);
    expect(listed).toEqual([sha256]);
  });

  it("lists nothing before the directory exists", async () => {
    const store = createFsBlobStore(path.join(dir, "not-yet"));
    for await (const blob of store.list()) expect.unreachable(`listed ${blob.sha256}`);
  });

  it("removes temporaries older than the given age, and only those", async () => {
    const tmp = path.join(dir, "tmp");
    mkdirSync(tmp, { recursive: true });
    const hourAgo = new Date(Date.now() - 60 * 60 * 1000);
    writeFileSync(path.join(tmp, "crashed"), "x");
    utimesSync(path.join(tmp, "crashed"), hourAgo, hourAgo);
    writeFileSync(path.join(tmp, "uploading"), "x");
    expect(await removeStaleTempFiles(dir, 10 * 60 * 1000)).toBe(1);
    expect(readdirSync(tmp)).toEqual(["uploading"]);
    expect(await createFsBlobStore(dir).removeStaleTemp(10 * 60 * 1000)).toBe(0);
    expect(await removeStaleTempFiles(dir, 10 * 60 * 1000, Date.now() + 11 * 60 * 1000)).toBe(1);
    expect(readdirSync(tmp)).toEqual([]);
    expect(await removeStaleTempFiles(path.join(dir, "nothing-here"), 0)).toBe(0);
  });
});
