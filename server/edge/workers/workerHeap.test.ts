// The edge workers' young generation. V8's --max-semi-space-size, which the server runs with for
// its main thread, outranks a Worker's resourceLimits; the pool sets the flag again before it
// starts its workers (pool.ts). This checks, in a process started with a larger young generation
// than the server's (so that the sizes stand far apart), that a worker made after that gets the
// small young generation while one made before does not, and that the main thread keeps its own.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { WORKER_SEMI_SPACE_MB } from "./pool";

/** Allocates short-lived objects, as a server does, until the young generation has grown as far as it may. */
const GROW = `
let keep = [], max = 0;
for (let i = 0; i < 3e6; i++) {
  keep.push({ i, s: "x" + i });
  if (keep.length > 2e5) keep = [];
  if (i % 1000 === 0) max = Math.max(max, v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space").space_size);
}
`;

const PROBE = `
import v8 from "node:v8";
import { Worker } from "node:worker_threads";
import { useWorkerHeapSize } from ${JSON.stringify(fileURLToPath(new URL("./pool.ts", import.meta.url)))};
const inWorker = () => new Promise((resolve, reject) => {
  // Built-ins fetched this way, since --input-type=module makes the worker's code a module too.
  const code = \`const v8 = process.getBuiltinModule("node:v8"); ${GROW} process.getBuiltinModule("node:worker_threads").parentPort.postMessage(max);\`;
  const worker = new Worker(code, { eval: true });
  worker.once("message", resolve);
  worker.once("error", reject);
});
const before = await inWorker();
useWorkerHeapSize();
const after = await inWorker();
${GROW}
console.log(JSON.stringify({ before, after, main: max }));
`;

describe("the edge workers' heap", () => {
  it("has a young generation of 2 × WORKER_SEMI_SPACE_MB whatever the process's flag, while the main thread keeps its own", () => {
    const output = execFileSync(process.execPath, ["--max-semi-space-size=16", "--import", "tsx", "--input-type=module", "-e", PROBE], {
      encoding: "utf8",
    });
    const mb = (bytes: number) => bytes / 2 ** 20;
    const { before, after, main } = JSON.parse(output) as { before: number; after: number; main: number };
    // The control: a worker made before the call grows as the server's flag lets it.
    expect(mb(before)).toBeGreaterThanOrEqual(16);
    // Two semi-spaces of 2 MB: 4 MB on Node 20; Node 24's V8 keeps 3–5 MB more beside them.
    expect(mb(after)).toBeLessThanOrEqual(2 * WORKER_SEMI_SPACE_MB + 5);
    expect(mb(main)).toBeGreaterThanOrEqual(16);
  }, 60_000);
});
