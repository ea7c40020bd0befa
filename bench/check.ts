// Publish-check bench: how long the check of a 1,000-file site takes, and how much memory it
// holds, against the anchor of reading the same bytes from the same blob store in the same run
// (the same range reads, the same read-ahead, no scanning). Two sites: a realistic one (600
// pages, 150 stylesheets, 250 images, a few problems of every kind) and a hostile one (1,000
// files of which 40 are 2 MB "pages" of binary, one huge line, a million tag openers,
// hundreds of thousands of attributes and deep nesting).
//
//   npx tsx bench/check.ts            # 5 rounds per site
//   npx tsx bench/check.ts --quick    # 2 rounds
//
// The check runs in the worker, in-process, over the blob store; no server is started.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { checkFiles, MAX_FILE_SCAN_BYTES, MAX_TOTAL_SCAN_BYTES, type CheckedFile, type ReadFile } from "../server/check/checkFiles";
import { createFsBlobStore } from "../server/storage/fs";
import type { BlobStore } from "../server/storage/blobStore";

const quick = process.argv.includes("--quick");
const ROUNDS = quick ? 2 : 5;
/** The goal: a 1,000-file site is checked in under this. */
const GOAL_MS = 2000;

async function store(blobs: BlobStore, path: string, content: Buffer | string, contentType: string): Promise<CheckedFile> {
  const bytes = Buffer.isBuffer(content) ? content : Buffer.from(content);
  const put = await blobs.put(Readable.from([bytes]), { maxBytes: bytes.length + 1 });
  return { path, sha256: put.sha256, size: bytes.length, contentType };
}

function page(i: number): string {
  const refs = [
    `<link rel="stylesheet" href="/css/s${i % 150}.css">`,
    `<script src="js/app.js"></script>`,
    ...Array.from(
      { length: 30 },
      (_, k) => `<p>Paragraph ${k} of page ${i}.</p><img src="/img/i${(i + k) % 250}.png" alt=""><a href="/p${(i + k + 1) % 600}">next</a>`,
    ),
    i % 50 === 0 ? `<img src="/img/I${i % 250}.PNG">` : "", // a case mismatch now and then
    i % 70 === 0 ? `<a href="/nowhere-${i}">broken</a>` : "",
    i % 90 === 0 ? `<script src="http://cdn.example.com/x.js"></script>` : "",
  ];
  return `<!doctype html><html><head><title>Page ${i}</title></head><body>\n${refs.join("\n")}\n</body></html>`;
}

async function realisticSite(blobs: BlobStore): Promise<CheckedFile[]> {
  const files: CheckedFile[] = [];
  files.push(await store(blobs, "index.html", page(0), "text/html"));
  for (let i = 1; i < 600; i++) files.push(await store(blobs, `p${i}.html`, page(i), "text/html"));
  for (let i = 0; i < 149; i++)
    files.push(await store(blobs, `css/s${i}.css`, `body{background:url(../img/i${i % 250}.png)}\n`.repeat(40), "text/css"));
  files.push(await store(blobs, "js/app.js", "console.log(1)", "text/javascript"));
  for (let i = 0; i < 250; i++) files.push(await store(blobs, `img/i${i}.png`, randomBytes(2048), "image/png"));
  return files;
}

async function hostileSite(blobs: BlobStore): Promise<CheckedFile[]> {
  const MB2 = MAX_FILE_SCAN_BYTES;
  const makers: Array<() => string | Buffer> = [
    () => randomBytes(MB2), // binary in .html
    () => "<img src=" + "a".repeat(MB2 - 20) + ">", // one huge line
    () => "<".repeat(MB2), // a million tag openers
    () => "<a " + 'x="1" '.repeat(Math.floor(MB2 / 6) - 2) + ">", // hundreds of thousands of attributes
    () => "<div>".repeat(Math.floor(MB2 / 5)), // deep nesting
    () => "<style>" + "url(".repeat(Math.floor(MB2 / 4) - 2), // CSS that never closes
    () => Array.from({ length: Math.floor(MB2 / 20) }, (_, i) => `<img src="m${i}.png">`).join(""), // a flood of findings
    () => "<img srcset='" + "a.png 1x,".repeat(Math.floor(MB2 / 9) - 2) + "'>",
  ];
  const files: CheckedFile[] = [await store(blobs, "index.html", "<p>hi</p>", "text/html")];
  for (let i = 0; i < 40; i++) files.push(await store(blobs, `big/${i}.html`, makers[i % makers.length]!(), "text/html"));
  for (let i = 0; i < 959; i++) files.push(await store(blobs, `f/${i}.html`, page(i), "text/html"));
  return files;
}

function reader(blobs: BlobStore): ReadFile {
  return async (file, maxBytes) => {
    const chunks: Buffer[] = [];
    for await (const chunk of await blobs.get(file.sha256, { start: 0, end: maxBytes - 1 })) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString("utf8");
  };
}

/** The anchor: the same reads as the check makes (the same files, bounds and read-ahead), and nothing else. */
async function readOnly(files: CheckedFile[], read: ReadFile): Promise<number> {
  let budget = MAX_TOTAL_SCAN_BYTES;
  const jobs = files
    .filter((f) => /\.(html?|css)$/i.test(f.path))
    .map((f) => {
      const bytes = Math.min(f.size, MAX_FILE_SCAN_BYTES, budget);
      budget -= bytes;
      return { f, bytes };
    })
    .filter((j) => j.bytes > 0);
  let total = 0;
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < jobs.length) {
        const job = jobs[next++]!;
        total += (await read(job.f, job.bytes)).length;
      }
    }),
  );
  return total;
}

async function measure(name: string, files: CheckedFile[], read: ReadFile): Promise<void> {
  const checkMs: number[] = [];
  const readMs: number[] = [];
  let peakHeap = 0;
  let problems = 0;
  for (let round = 0; round < ROUNDS; round++) {
    global.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    let t = performance.now();
    await readOnly(files, read);
    readMs.push(performance.now() - t);
    global.gc?.();
    t = performance.now();
    const sampler = setInterval(() => (peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed - heapBefore)), 5);
    const outcome = await checkFiles(files, [], read);
    clearInterval(sampler);
    checkMs.push(performance.now() - t);
    problems = outcome.problemCount;
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const c = median(checkMs);
  const r = median(readMs);
  const bytes = files.filter((f) => /\.(html?|css)$/i.test(f.path)).reduce((sum, f) => sum + Math.min(f.size, MAX_FILE_SCAN_BYTES), 0);
  console.log(
    `${name.padEnd(10)} ${files.length} files, ${(bytes / 2 ** 20).toFixed(1)} MiB of HTML/CSS, ${problems} problems | ` +
      `check ${c.toFixed(0)} ms (goal < ${GOAL_MS}: ${c < GOAL_MS ? "met" : "MISSED"}) | read only ${r.toFixed(0)} ms | ratio ${(c / r).toFixed(2)} | ` +
      `peak heap growth ${(peakHeap / 2 ** 20).toFixed(0)} MiB`,
  );
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "berth-check-bench-"));
  try {
    const blobs = createFsBlobStore(dir);
    const read = reader(blobs);
    console.log(
      `publish check, ${ROUNDS} rounds each (medians), load average ${os.loadavg()[0]!.toFixed(2)}; run with node --expose-gc for steadier heap figures`,
    );
    await measure("realistic", await realisticSite(blobs), read);
    await measure("hostile", await hostileSite(blobs), read);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
