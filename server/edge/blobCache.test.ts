import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createFsBlobStore } from "../storage/fs";
import { BlobCache } from "./blobCache";
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
