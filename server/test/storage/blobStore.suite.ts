// The contract every BlobStore keeps, run once per implementation (fs.test.ts, s3.test.ts), so
// that the edge and the upload code can treat both alike.
import { createHash, randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BlobNotFoundError, BlobTooLargeError, InvalidSha256Error, type BlobInfo, type BlobStore } from "../../storage/blobStore";

export interface BlobStoreFixture {
  store: BlobStore;
  cleanup(): Promise<void>;
  /** Names of the store's temporary uploads still present: a rejected put must leave none. */
  temporaries?(): Promise<string[]>;
}

const MB = 1024 * 1024;

export const sha256Of = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function listAll(store: BlobStore): Promise<BlobInfo[]> {
  const blobs: BlobInfo[] = [];
  for await (const blob of store.list()) blobs.push(blob);
  return blobs;
}

/** Deterministic bytes in 64 KiB chunks, `total` of them in all, or forever. */
async function* generate(total: number, hash?: ReturnType<typeof createHash>): AsyncGenerator<Buffer> {
  const chunk = Buffer.alloc(64 * 1024);
  for (let sent = 0, n = 0; sent < total; n++) {
    chunk.fill(n % 251);
    chunk.writeUInt32BE(n, 0);
    const part = chunk.subarray(0, Math.min(chunk.length, total - sent));
    hash?.update(part);
    sent += part.length;
    yield Buffer.from(part);
  }
}

/** A source that sends `before` bytes and then fails, as a dropped connection would. */
function failingSource(before: number): Readable {
  return Readable.from(
    (async function* () {
      yield* generate(before);
      throw new Error("connection reset");
    })(),
  );
}

export function describeBlobStore(name: string, makeStore: () => Promise<BlobStoreFixture>): void {
  describe(`BlobStore: ${name}`, () => {
    let fixture: BlobStoreFixture;
    let store: BlobStore;

    beforeEach(async () => {
      fixture = await makeStore();
      store = fixture.store;
    });
    afterEach(async () => {
      await fixture.cleanup();
    });

    const expectNothingLeft = async (blobs: string[] = []) => {
      expect((await listAll(store)).map((b) => b.sha256)).toEqual(blobs);
      if (fixture.temporaries) expect(await fixture.temporaries()).toEqual([]);
    };

    it("stores bytes under their SHA-256 and gives them back", async () => {
      const bytes = Buffer.from("<!doctype html><title>Berth</title>");
      const result = await store.put(Readable.from([bytes]), { maxBytes: 1024 });
      expect(result).toEqual({ sha256: sha256Of(bytes), size: bytes.length, created: true });
      expect(await readAll(await store.get(result.sha256))).toEqual(bytes);
      const info = await store.stat(result.sha256);
      expect(info).toMatchObject({ sha256: result.sha256, size: bytes.length });
      expect(info?.modifiedAt).toBeInstanceOf(Date);
      await expectNothingLeft([result.sha256]);
    });

    it("stores the same bytes once", async () => {
      const bytes = randomBytes(3000);
      const first = await store.put(Readable.from([bytes]), { maxBytes: MB });
      const second = await store.put(Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]), { maxBytes: MB });
      expect(first.created).toBe(true);
      expect(second).toEqual({ sha256: first.sha256, size: 3000, created: false });
      await expectNothingLeft([first.sha256]);
    });

    it("stores an empty blob", async () => {
      const result = await store.put(Readable.from([]), { maxBytes: 0 });
      expect(result).toEqual({ sha256: sha256Of(Buffer.alloc(0)), size: 0, created: true });
      expect((await readAll(await store.get(result.sha256))).length).toBe(0);
      expect((await store.stat(result.sha256))?.size).toBe(0);
    });

    it("reads inclusive byte ranges", async () => {
      const bytes = randomBytes(1000);
      const { sha256 } = await store.put(Readable.from([bytes]), { maxBytes: 1000 });
      for (const [start, end] of [
        [0, 0],
        [100, 199],
        [999, 999],
        [0, 999],
      ] as const) {
        expect(await readAll(await store.get(sha256, { start, end })), `${start}-${end}`).toEqual(bytes.subarray(start, end + 1));
      }
    });

    it("streams a 20 MB blob through without changing a byte", async () => {
      const hash = createHash("sha256");
      const size = 20 * MB + 123;
      const result = await store.put(Readable.from(generate(size, hash)), { maxBytes: 25 * MB });
      expect(result).toEqual({ sha256: hash.digest("hex"), size, created: true });
      const readBack = createHash("sha256");
      for await (const chunk of await store.get(result.sha256)) readBack.update(chunk as Buffer);
      expect(readBack.digest("hex")).toBe(result.sha256);
      expect((await store.stat(result.sha256))?.size).toBe(size);
    });

    it("accepts a blob of exactly maxBytes", async () => {
      const result = await store.put(Readable.from([randomBytes(4096)]), { maxBytes: 4096 });
      expect(result.size).toBe(4096);
    });

    it("refuses one byte over maxBytes and leaves nothing behind", async () => {
      const kept = await store.put(Readable.from([Buffer.from("kept")]), { maxBytes: 10 });
      const source = Readable.from([randomBytes(4000), randomBytes(97)]);
      await expect(store.put(source, { maxBytes: 4096 })).rejects.toBeInstanceOf(BlobTooLargeError);
      await expectNothingLeft([kept.sha256]);
    });

    it("stops reading an endless source at the limit, past the first part of a multipart upload", async () => {
      const source = Readable.from(generate(Number.POSITIVE_INFINITY));
      const error: unknown = await store.put(source, { maxBytes: 12 * MB }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BlobTooLargeError);
      expect((error as BlobTooLargeError).maxBytes).toBe(12 * MB);
      expect(source.destroyed).toBe(true);
      await expectNothingLeft();
    });

    it.each([
      ["before any part is complete", 1000],
      ["after a multipart upload has begun", 10 * MB],
    ])("leaves nothing when the source fails %s", async (_when, before) => {
      await expect(store.put(failingSource(before), { maxBytes: 50 * MB })).rejects.toThrow("connection reset");
      await expectNothingLeft();
    });

    it("reports a missing blob", async () => {
      const missing = sha256Of(Buffer.from("never stored"));
      await expect(store.get(missing)).rejects.toBeInstanceOf(BlobNotFoundError);
      await expect(store.get(missing, { start: 0, end: 0 })).rejects.toBeInstanceOf(BlobNotFoundError);
      expect(await store.stat(missing)).toBeUndefined();
    });

    it("names the digests it does not hold, each once", async () => {
      const { sha256: held } = await store.put(Readable.from([Buffer.from("held")]), { maxBytes: 100 });
      const absent = sha256Of(Buffer.from("absent"));
      expect(await store.missing([held, absent, held, absent])).toEqual([absent]);
      expect(await store.missing([held])).toEqual([]);
      expect(await store.missing([])).toEqual([]);
      await store.delete(held);
      expect(await store.missing([held])).toEqual([held]);
    });

    it("deletes, and deleting a missing blob is not an error", async () => {
      const { sha256 } = await store.put(Readable.from([Buffer.from("short-lived")]), { maxBytes: 100 });
      await store.delete(sha256);
      await expect(store.get(sha256)).rejects.toBeInstanceOf(BlobNotFoundError);
      expect(await store.stat(sha256)).toBeUndefined();
      await store.delete(sha256);
      await expectNothingLeft();
    });

    it("makes stored bytes young again when they are put again; deletes only blobs older than a cutoff", async () => {
      const bytes = randomBytes(2000);
      const first = await store.put(Readable.from([bytes]), { maxBytes: MB });
      const written = (await store.stat(first.sha256))!.modifiedAt;
      // S3 keeps LastModified to the second.
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect(await store.put(Readable.from([bytes]), { maxBytes: MB })).toMatchObject({ created: false });
      const rewritten = (await store.stat(first.sha256))!.modifiedAt;
      expect(rewritten.getTime()).toBeGreaterThan(written.getTime());

      expect(await store.deleteIfOlderThan(first.sha256, written)).toBe(false);
      expect(await readAll(await store.get(first.sha256))).toEqual(bytes);
      expect(await store.deleteIfOlderThan(first.sha256, new Date(Date.now() + 1000))).toBe(true);
      expect(await store.stat(first.sha256)).toBeUndefined();
      expect(await store.deleteIfOlderThan(first.sha256, new Date(Date.now() + 1000))).toBe(false);
      await expectNothingLeft();
    });

    it.each([
      "../../etc/passwd",
      "",
      "tmp",
      "A".repeat(64),
      "a".repeat(63),
      "a".repeat(65),
      `${"a".repeat(62)}/x`,
      `../${"a".repeat(61)}`,
      `${"a".repeat(63)}\0`,
    ])("refuses %j as a blob name", async (bad) => {
      await expect(store.get(bad)).rejects.toBeInstanceOf(InvalidSha256Error);
      await expect(store.stat(bad)).rejects.toBeInstanceOf(InvalidSha256Error);
      await expect(store.delete(bad)).rejects.toBeInstanceOf(InvalidSha256Error);
    });

    it("refuses a nonsensical range", async () => {
      const { sha256 } = await store.put(Readable.from([Buffer.from("0123456789")]), { maxBytes: 100 });
      await expect(store.get(sha256, { start: 5, end: 4 })).rejects.toBeInstanceOf(RangeError);
      await expect(store.get(sha256, { start: -1, end: 4 })).rejects.toBeInstanceOf(RangeError);
    });

    it("lets concurrent puts of the same bytes all succeed with one blob", async () => {
      const bytes = randomBytes(256 * 1024);
      const results = await Promise.all(
        [1, 2, 3].map(() => store.put(Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]), { maxBytes: MB })),
      );
      for (const result of results) expect(result).toMatchObject({ sha256: sha256Of(bytes), size: bytes.length });
      expect(results.some((r) => r.created)).toBe(true);
      await expectNothingLeft([sha256Of(bytes)]);
      expect(await readAll(await store.get(sha256Of(bytes)))).toEqual(bytes);
    });

    it("stores a batch of buffers, in order, each digest once", async () => {
      const kept = await store.put(Readable.from([Buffer.from("stored before")]), { maxBytes: 100 });
      const fresh = Array.from({ length: 40 }, (_, i) => randomBytes(100 + i * 37));
      const batch = [...fresh, Buffer.from("stored before"), fresh[3]!, Buffer.alloc(0)];
      const results = await store.putBuffers(batch);
      expect(results.map((r) => [r.sha256, r.size])).toEqual(batch.map((b) => [sha256Of(b), b.length]));
      // New bytes are created once; bytes already stored, and a digest's second copy, are not.
      expect(results.slice(0, 40).every((r) => r.created)).toBe(true);
      expect(results.slice(40, 42).map((r) => r.created)).toEqual([false, false]);
      expect(results[42]!.created).toBe(true);
      const expected = [...new Set([kept.sha256, ...batch.map(sha256Of)])].sort();
      await expectNothingLeft(expected);
      for (const bytes of batch) expect(await readAll(await store.get(sha256Of(bytes)))).toEqual(bytes);
      expect(await store.putBuffers([])).toEqual([]);
    });

    it("lets a batch and single puts of the same bytes race to one blob", async () => {
      const shared = randomBytes(4096);
      const [batch, single] = await Promise.all([store.putBuffers([shared, randomBytes(10)]), store.put(Readable.from([shared]), { maxBytes: MB })]);
      expect(batch[0]!.sha256).toBe(single.sha256);
      expect([batch[0]!.created, single.created]).toContain(true);
      expect(await readAll(await store.get(single.sha256))).toEqual(shared);
      if (fixture.temporaries) expect(await fixture.temporaries()).toEqual([]);
    });

    it("lists every blob", async () => {
      const stored = await Promise.all(["one", "two", "three"].map((text) => store.put(Readable.from([Buffer.from(text)]), { maxBytes: 10 })));
      const listed = await listAll(store);
      expect(listed.map((b) => b.sha256).sort()).toEqual(stored.map((s) => s.sha256).sort());
      for (const blob of listed) expect(blob.modifiedAt).toBeInstanceOf(Date);
      expect(listed.find((b) => b.sha256 === stored[2]!.sha256)?.size).toBe(5);
    });
  });
}
