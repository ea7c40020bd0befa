// The edge workers' heap sizes. V8's --max-semi-space-size, which the server runs with for its
// main thread, outranks a Worker's resourceLimits; the pool sets the flag again before it starts
// its workers, and how far a heap may grow past its last full collection (pool.ts). This checks,
// in a process started with a larger young generation than the server's (so that the sizes stand
// far apart), that a worker made after that gets the small heap while one made before does not,
// and that the main thread keeps its own young generation.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { GROW_HEAP } from "../../test/heapProbe";
import { WORKER_SEMI_SPACE_MB } from "./pool";

const PROBE = `
import v8 from "node:v8";
import { Worker } from "node:worker_threads";
import { useWorkerHeapSize } from ${JSON.stringify(fileURLToPath(new URL("./pool.ts", import.meta.url)))};
const inWorker = () => new Promise((resolve, reject) => {
  // Built-ins fetched this way, since --input-type=module makes the worker's code a module too.
  const code = \`const v8 = process.getBuiltinModule("node:v8"); ${GROW_HEAP} process.getBuiltinModule("node:worker_threads").parentPort.postMessage({ young, old });\`;
  const worker = new Worker(code, { eval: true });
  worker.once("message", resolve);
  worker.once("error", reject);
});
const before = await inWorker();
useWorkerHeapSize();
const after = await inWorker();
${GROW_HEAP}
console.log(JSON.stringify({ before, after, main: young }));
`;

describe("the edge workers' heap", () => {
  it("has a young generation of 2 × WORKER_SEMI_SPACE_MB whatever the process's flag, and an old one that grows in small steps", () => {
    const output = execFileSync(process.execPath, ["--max-semi-space-size=32", "--import", "tsx", "--input-type=module", "-e", PROBE], {
      encoding: "utf8",
    });
    const mb = (bytes: number) => bytes / 2 ** 20;
    type Sizes = { young: number; old: number };
    const { before, after, main } = JSON.parse(output) as { before: Sizes; after: Sizes; main: number };
    // The control: a worker made before the call grows as the process's flag and V8's defaults let it.
    expect(mb(before.young)).toBeGreaterThanOrEqual(32);
    expect(mb(before.old)).toBeGreaterThan(mb(after.old) + 8);
    // Two semi-spaces of 8 MB: 16 MB as measured on Node 20 and 24, and up to 22 when Node 24's V8
    // keeps pages beside them; the bound holds a margin and stays under half of the 32 MB flag's 64.
    expect(mb(after.young)).toBeLessThanOrEqual(2 * WORKER_SEMI_SPACE_MB + 12);
    // The batches' 20-odd MB, and not much more: 33–39 MB as measured (27–51 with 2 MB semi-spaces,
    // as concurrent marking finishes sooner or later), where V8's default growth reached 85–118; the
    // control above is the sharper check.
    expect(mb(after.old)).toBeLessThanOrEqual(56);
    // The main thread's young generation keeps the size the process started it with.
    expect(mb(main)).toBeGreaterThanOrEqual(32);
  }, 60_000);
});
