import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { describeBlobStore, sha256Of } from "../test/storage/blobStore.suite";
import { BlobNotFoundError } from "./blobStore";
import { createFsBlobStore, removeStaleTempFiles } from "./fs";

const tempDir = () => mkdtempSync(path.join(os.tmpdir(), "berth-blobs-"));

describeBlobStore("fs", async () => {
  const dir = tempDir();
  return {
    store: createFsBlobStore(dir),
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
    temporaries: async () => (existsSync(path.join(dir, "tmp")) ? readdirSync(path.join(dir, "tmp")) : []),
  };
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
