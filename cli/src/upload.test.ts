import { describe, expect, it } from "vitest";
import { BATCH_BYTES, BATCH_FILES, LARGE_FILE_BYTES, planUploads, UPLOAD_CONCURRENCY, type UploadJob } from "./upload";
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
  });

  it("closes a batch at its byte or file budget", () => {
    const count = (jobs: UploadJob[]) => jobs.map((job) => (job.kind === "batch" ? job.files.length : 1));
    const bySize = planUploads(Array.from({ length: 5 * 8 + 2 }, (_, i) => file(`f${i}`, LARGE_FILE_BYTES)));
    expect(BATCH_BYTES).toBe(8 * LARGE_FILE_BYTES);
    expect(count(bySize)).toEqual([8, 8, 8, 8, 8, 2]);
    for (const job of bySize) if (job.kind === "batch") expect(job.files.reduce((s, f) => s + f.size, 0)).toBeLessThanOrEqual(BATCH_BYTES);
    const byCount = planUploads(Array.from({ length: UPLOAD_CONCURRENCY * BATCH_FILES + 1 }, (_, i) => file(`f${i}`, 1)));
    expect(count(byCount)).toEqual([...Array(UPLOAD_CONCURRENCY).fill(BATCH_FILES), 1]);
    expect(byCount.at(-1)!.kind).toBe("file");
  });

  it("plans nothing for nothing", () => {
    expect(planUploads([])).toEqual([]);
  });
});
