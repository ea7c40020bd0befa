import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createFsBlobStore } from "../storage/fs";
import { BlobNotFoundError } from "../storage/blobStore";
import { BlobCache, READ_NOW_MAX_BYTES } from "./blobCache";
import { EdgeMemory } from "./memory/budget";

async function storeWith(contents: string[]) {
  const store = createFsBlobStore(mkdtempSync(path.join(os.tmpdir(), "berth-cache-")));
  const shas: string[] = [];
  for (const content of contents) shas.push((await store.put(Readable.from([Buffer.from(content)]), { maxBytes: 1e6 })).sha256);
  return { store, shas };
}

describe("BlobCache", () => {
  it("reads each blob once, even when asked concurrently", async () => {
    const { store, shas } = await storeWith(["hello"]);
    let reads = 0;
    const counting = { ...store, get: (sha: string) => (reads++, store.get(sha)) };
    const cache = new BlobCache(counting, new EdgeMemory(1000), 100);
    const results = await Promise.all([cache.load(shas[0]!), cache.load(shas[0]!), cache.load(shas[0]!)]);
    expect(results.map(String)).toEqual(["hello", "hello", "hello"]);
    await cache.load(shas[0]!);
    expect(reads).toBe(1);
  });

  it("stays within its capacity, dropping the least recently used", async () => {
    const { store, shas } = await storeWith(["a".repeat(40), "b".repeat(40), "c".repeat(40)]);
    const cache = new BlobCache(store, new EdgeMemory(100), 100);
    await cache.load(shas[0]!);
    await cache.load(shas[1]!);
    cache.peek(shas[0]!);
    await cache.load(shas[2]!);
    expect(cache.size).toBe(80);
    expect(cache.peek(shas[0]!)).toBeDefined();
    expect(cache.peek(shas[1]!)).toBeUndefined();
  });

  it("says which sizes it keeps", () => {
    const cache = new BlobCache({} as never, new EdgeMemory(1000), 100);
    expect(cache.fits(100)).toBe(true);
    expect(cache.fits(101)).toBe(false);
    // Never more than the bodies can always have, whatever the other caches hold.
    const small = new BlobCache({} as never, new EdgeMemory(200), 100);
    expect(small.fits(74)).toBe(true);
    expect(small.fits(75)).toBe(false);
  });

  it("lets bodies go when the edge's other caches need the budget, and counts them in it", async () => {
    const { store, shas } = await storeWith(["a".repeat(40), "b".repeat(40)]);
    const memory = new EdgeMemory(100);
    const cache = new BlobCache(store, memory, 100);
    await cache.load(shas[0]!);
    await cache.load(shas[1]!);
    expect(memory.files.used).toBe(80);
    expect(memory.used).toBe(80);
    // Routes come in: the total would be 110, so the older body goes.
    memory.part("routes").charge(12);
    memory.part("manifests").charge(18);
    expect(cache.size).toBe(40);
    expect(cache.peek(shas[0]!)).toBeUndefined();
    expect(cache.peek(shas[1]!)).toBeDefined();
    expect(memory.used).toBe(70);
  });
});

describe("BlobCache.readNow", () => {
  it("reads a small local blob on this thread, once, and keeps it", async () => {
    const { store, shas } = await storeWith(["hello"]);
    let reads = 0;
    const counting = { ...store, readSync: (sha: string) => (reads++, store.readSync!(sha)) };
    const cache = new BlobCache(counting, new EdgeMemory(1000), 100);
    expect(String(cache.readNow(shas[0]!, 5))).toBe("hello");
    expect(String(cache.readNow(shas[0]!, 5))).toBe("hello");
    expect(reads).toBe(1);
    expect(cache.size).toBe(5);
    expect(String(cache.peek(shas[0]!))).toBe("hello");
  });

  it("leaves to load() what it must not read now: too large, a store without local files, a read in flight, a missing blob", async () => {
    const { store, shas } = await storeWith(["x".repeat(64), "hello"]);
    const big = new BlobCache(store, new EdgeMemory(1e7), 1e6);
    expect(big.readNow(shas[0]!, READ_NOW_MAX_BYTES + 1)).toBeUndefined();

    const noLocal = new BlobCache({ ...store, readSync: undefined }, new EdgeMemory(1000), 100);
    expect(noLocal.readNow(shas[1]!, 5)).toBeUndefined();

    // Taking it now while load() reads it would keep (and count) it twice.
    const cache = new BlobCache(store, new EdgeMemory(1000), 100);
    const loading = cache.load(shas[1]!);
    expect(cache.readNow(shas[1]!, 5)).toBeUndefined();
    expect(String(await loading)).toBe("hello");
    expect(cache.size).toBe(5);

    expect(cache.readNow("0".repeat(64), 5)).toBeUndefined();
    await expect(cache.load("0".repeat(64))).rejects.toThrow(BlobNotFoundError);
  });
});
