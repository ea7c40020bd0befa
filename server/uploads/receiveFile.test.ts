import { readFile } from "node:fs/promises";
import { Readable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_UPLOAD_BYTES } from "../../common/uploads";
import { receiveToBlob, receiveToTempFile } from "./receiveFile";
import { createSandbox, expectUploadError, filesUnder, readAll, sha256, type Sandbox } from "../test/uploads/sandbox";

const MB = 1024 * 1024;
const CHUNK = 64 * 1024;

/** A source of `total` bytes (endless when undefined) that records how many it has handed out. */
function countingSource(total?: number) {
  const counter = { produced: 0 };
  const chunk = Buffer.alloc(CHUNK, 0x61);
  async function* generate() {
    while (total === undefined || counter.produced < total) {
      const size = total === undefined ? CHUNK : Math.min(CHUNK, total - counter.produced);
      counter.produced += size;
      yield chunk.subarray(0, size);
    }
  }
  return { stream: Readable.from(generate()), counter };
}

let sandbox: Sandbox;
beforeEach(async () => {
  sandbox = await createSandbox();
});
afterEach(async () => {
  await sandbox.cleanup();
});

describe("receiveToBlob", () => {
  it("stores a file of exactly the limit", async () => {
    const data = Buffer.alloc(1 * MB, 7);
    const result = await receiveToBlob(Readable.from([data]), sandbox.store, 1 * MB);
    expect(result).toEqual({ sha256: sha256(data), size: 1 * MB, created: true });
    expect(await readAll(await sandbox.store.get(result.sha256))).toEqual(data);
  });

  it("refuses the limit plus one byte and keeps nothing", async () => {
    const error = await expectUploadError(receiveToBlob(Readable.from([Buffer.alloc(1 * MB + 1)]), sandbox.store, 1 * MB), "file_too_large");
    expect(error.title).toBe("File too large");
    expect(error.description).toBe("Maximum file size is 1MB");
    expect(error.status).toBe(413);
    expect(await filesUnder(sandbox.blobDir)).toEqual([]);
  });

  it("refuses 50 MB + 1 byte with 'Maximum file size is 50MB'", async () => {
    const { stream, counter } = countingSource(MAX_UPLOAD_BYTES + 1);
    const error = await expectUploadError(receiveToBlob(stream, sandbox.store, MAX_UPLOAD_BYTES), "file_too_large");
    expect(error.description).toBe("Maximum file size is 50MB");
    expect(counter.produced).toBe(MAX_UPLOAD_BYTES + 1);
    expect(await filesUnder(sandbox.blobDir)).toEqual([]);
  });

  it("stops reading an endless upload just past the limit", async () => {
    const { stream, counter } = countingSource();
    await expectUploadError(receiveToBlob(stream, sandbox.store, MAX_UPLOAD_BYTES), "file_too_large");
    // What the stream had buffered ahead, at most a few chunks: the store did not drain the rest.
    expect(counter.produced).toBeGreaterThan(MAX_UPLOAD_BYTES);
    expect(counter.produced).toBeLessThan(MAX_UPLOAD_BYTES + 1 * MB);
    expect(stream.destroyed).toBe(true);
    expect(await filesUnder(sandbox.blobDir)).toEqual([]);
  });

  it("passes other failures through unchanged", async () => {
    const failing = new Readable({
      read() {
        this.destroy(new Error("connection reset"));
      },
    });
    await expect(receiveToBlob(failing, sandbox.store, MB)).rejects.toThrow("connection reset");
    expect(await filesUnder(sandbox.blobDir)).toEqual([]);
  });
});

describe("receiveToTempFile", () => {
  it("writes the upload to a new file the caller removes", async () => {
    const data = Buffer.from("PK fake zip bytes");
    const temp = await receiveToTempFile(Readable.from([data]), sandbox.workDir, data.length);
    expect(temp.size).toBe(data.length);
    expect(temp.path.startsWith(sandbox.workDir)).toBe(true);
    expect(await readFile(temp.path)).toEqual(data);
    await temp.remove();
    await temp.remove();
    expect(await filesUnder(sandbox.workDir)).toEqual([]);
  });

  it("refuses more than the limit, stops reading and deletes the partial file", async () => {
    const { stream, counter } = countingSource();
    const error = await expectUploadError(receiveToTempFile(stream, sandbox.workDir, 2 * MB), "file_too_large");
    expect(error.description).toBe("Maximum file size is 2MB");
    expect(counter.produced).toBeLessThan(3 * MB);
    expect(await filesUnder(sandbox.workDir)).toEqual([]);
  });

  it("accepts exactly the limit", async () => {
    const temp = await receiveToTempFile(countingSource(2 * MB).stream, sandbox.workDir, 2 * MB);
    expect(temp.size).toBe(2 * MB);
    await temp.remove();
  });

  it("deletes the partial file when the source fails", async () => {
    async function* broken() {
      yield Buffer.alloc(1000);
      throw new Error("client went away");
    }
    await expect(receiveToTempFile(Readable.from(broken()), sandbox.workDir, MB)).rejects.toThrow("client went away");
    expect(await filesUnder(sandbox.workDir)).toEqual([]);
  });
});
