import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BATCH_BYTES, BATCH_FILES, digestTar, LARGE_FILE_BYTES, planUploads, UPLOAD_CONCURRENCY, type UploadJob } from "./upload";
import type { HashedFile } from "./walk";

const shape = (jobs: UploadJob[]) => jobs.map((job) => (job.kind === "file" ? job.file.path : job.files.map((f) => f.path)));
const file = (name: string, size: number): HashedFile => ({ path: name, absolute: `/x/${name}`, size, sha256: name.padEnd(64, "0") });

describe("the upload plan", () => {
  it("sends large files alone, largest first, and packs the small ones into batches", () => {
    const small = Array.from({ length: 2 * UPLOAD_CONCURRENCY }, (_, i) => file(`s${i}`, i === 0 ? LARGE_FILE_BYTES : 10));
    const jobs = planUploads([file("big", LARGE_FILE_BYTES + 1), ...small, file("bigger", 5 * LARGE_FILE_BYTES)]);
    expect(shape(jobs).slice(0, 2)).toEqual(["bigger", "big"]);
    expect(shape(jobs).slice(2).flat()).toEqual(small.map((f) => f.path));
  });

  it("spreads the small files over as many batches as requests go at once, and sends a file alone as itself", () => {
    const jobs = planUploads(Array.from({ length: 4 * UPLOAD_CONCURRENCY }, (_, i) => file(`f${i}`, 10)));
    expect(jobs.map((job) => (job.kind === "batch" ? job.files.length : 0))).toEqual(Array(UPLOAD_CONCURRENCY).fill(4));
    expect(shape(planUploads([file("one", 10)]))).toEqual(["one"]);
    expect(shape(planUploads([file("a", 10), file("b", 10)]))).toEqual(["a", "b"]);
    // Fewer files than requests in flight: each alone, whatever their sizes and order.
    expect(shape(planUploads([file("four", 4), file("eleven", 11), file("sixteen", 16)]))).toEqual(["four", "eleven", "sixteen"]);
  });

  it("keeps every batch within its byte and file budgets, in whole waves of requests", () => {
    const count = (jobs: UploadJob[]) => jobs.map((job) => (job.kind === "batch" ? job.files.length : 1));
    const bySize = planUploads(Array.from({ length: 5 * 8 + 2 }, (_, i) => file(`f${i}`, LARGE_FILE_BYTES)));
    expect(BATCH_BYTES).toBe(8 * LARGE_FILE_BYTES);
    // 42 MiB need six batches of at most 8 MiB: two waves of UPLOAD_CONCURRENCY, evened out.
    expect(count(bySize)).toHaveLength(2 * UPLOAD_CONCURRENCY);
    expect(count(bySize).reduce((a, b) => a + b, 0)).toBe(42);
    for (const job of bySize) if (job.kind === "batch") expect(job.files.reduce((s, f) => s + f.size, 0)).toBeLessThanOrEqual(BATCH_BYTES);
    const byCount = planUploads(Array.from({ length: UPLOAD_CONCURRENCY * BATCH_FILES + 1 }, (_, i) => file(`f${i}`, 1)));
    expect(count(byCount)).toHaveLength(2 * UPLOAD_CONCURRENCY);
    expect(Math.max(...count(byCount))).toBeLessThanOrEqual(BATCH_FILES);
    expect(Math.max(...count(byCount)) - Math.min(...count(byCount))).toBeLessThanOrEqual(1);
  });

  it("cuts a folder of uneven files into one batch per request in flight, so none waits for a free slot", () => {
    // 1,000 files of 1–20 KiB, as a built site has: greedy batches of a quarter of the bytes each left
    // a fifth, small batch to wait for one of the first four to end.
    const sizes = Array.from({ length: 1000 }, (_, i) => 1024 + ((i * 7919) % 20) * 1024);
    const jobs = planUploads(sizes.map((size, i) => file(`f${i}`, size)));
    expect(jobs).toHaveLength(UPLOAD_CONCURRENCY);
    const counts = jobs.map((job) => (job.kind === "batch" ? job.files.length : 1));
    expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(20);
    expect(shape(jobs).flat()).toEqual(sizes.map((_, i) => `f${i}`));
  });

  it("plans nothing for nothing", () => {
    expect(planUploads([])).toEqual([]);
  });
});

describe("a batch's tar", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "berth-tar-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const listed = (name: string, bytes: string): HashedFile => {
    const absolute = path.join(dir, name);
    writeFileSync(absolute, bytes);
    return { path: name, absolute, size: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex") };
  };

  it("names each entry by its digest and holds the bytes that were hashed", () => {
    const file = listed("a.html", "<h1>a</h1>");
    const tar = digestTar([file]);
    expect(tar.subarray(0, 64).toString("latin1")).toBe(file.sha256);
    expect(tar.subarray(512, 512 + file.size).toString()).toBe("<h1>a</h1>");
    expect(tar.length % 512).toBe(0);
  });

  it("refuses a file edited after it was hashed, naming it", () => {
    const file = listed("b.html", "before");
    writeFileSync(file.absolute, "after!");
    expect(() => digestTar([file])).toThrow("b.html changed while it was being deployed: run berth deploy again");
  });

  it("says which file it could not read", () => {
    const file = listed("c.html", "gone");
    rmSync(file.absolute);
    expect(() => digestTar([file])).toThrow(/^could not read c\.html: ENOENT/);
  });
});
