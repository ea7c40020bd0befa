import { describe, expect, it } from "vitest";
import { BATCH_BYTES, BATCH_FILES, LARGE_FILE_BYTES, planUploads } from "./upload";
import type { HashedFile } from "./walk";

const file = (name: string, size: number): HashedFile => ({ path: name, absolute: `/x/${name}`, size, sha256: name.padEnd(64, "0") });

describe("the upload plan", () => {
  it("sends large files alone, largest first, and packs the small ones into batches", () => {
    const jobs = planUploads([file("a", 10), file("big", LARGE_FILE_BYTES + 1), file("b", LARGE_FILE_BYTES), file("bigger", 5 * LARGE_FILE_BYTES)]);
    expect(jobs.map((job) => (job.kind === "file" ? job.file.path : job.files.map((f) => f.path)))).toEqual(["bigger", "big", ["a", "b"]]);
  });

  it("closes a batch at its byte or file budget", () => {
    const bySize = planUploads(Array.from({ length: 20 }, (_, i) => file(`f${i}`, LARGE_FILE_BYTES)));
    expect(bySize.map((job) => (job.kind === "batch" ? job.files.length : 0))).toEqual([8, 8, 4]);
    for (const job of bySize) if (job.kind === "batch") expect(job.files.reduce((s, f) => s + f.size, 0)).toBeLessThanOrEqual(BATCH_BYTES);
    const byCount = planUploads(Array.from({ length: BATCH_FILES + 1 }, (_, i) => file(`f${i}`, 1)));
    expect(byCount.map((job) => (job.kind === "batch" ? job.files.length : 0))).toEqual([BATCH_FILES, 1]);
  });

  it("plans nothing for nothing", () => {
    expect(planUploads([])).toEqual([]);
  });
});
