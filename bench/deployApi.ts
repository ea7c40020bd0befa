// Deploy bench: a redeploy through the deploy API (what `berth deploy` does) of a 1,000-file site
// in which one file changed: open the deploy with the manifest, upload the one missing file,
// publish. Measured from the first byte of the first request to the last byte of the publish's
// answer, over real HTTP against the built server on embedded PGlite, with the server's CPU time
// for the same requests beside it (on a busy machine the wall time waits for other processes;
// the CPU time is closer to what the redeploy costs). Each run waits for the server to be quiet
// (compression of the changed file, the history's pruning) before it starts.
//
//   npm run build && npx tsx bench/deployApi.ts            # 15 measured runs after 2 warm-ups
//   npx tsx bench/deployApi.ts --runs 5
//
// The budget is 300 ms end to end; the Free plan's history of 10 versions is full from the
// tenth run on, so later runs include pruning the oldest version (1,000 rows and their counts).
import { createHash } from "node:crypto";
import type { DeployResponse } from "../common/deploys";
import type { SiteResponse } from "../common/sites";
import { startBerth } from "../e2e/support/berth";
import { signUpAndIn } from "./account";
import { BenchError, cleanups, cpuTimeMs, loadAverage, median, pidOf, runBench, waitForQuiet } from "./support";
import { tarOf } from "../server/test/uploads/tarBuilder";

const FILES = 1000;
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

interface Options {
  runs: number;
}

const USAGE = `Usage: npx tsx bench/deployApi.ts [--runs N]   (build first: npm run build)
  --runs N   measured redeploys after 2 warm-ups (default 15)`;

function parseArgs(argv: readonly string[]): Options | undefined {
  const options: Options = { runs: 15 };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--help") return undefined;
    if (argv[i] === "--runs" && /^[1-9][0-9]*$/.test(argv[i + 1] ?? "")) options.runs = Number(argv[++i]);
    else throw new BenchError(`unknown option ${argv[i]}\n${USAGE}`);
  }
  return options;
}

async function main(options: Options): Promise<void> {
  const berth = await startBerth();
  cleanups.push(() => berth.stop());
  const pid = pidOf(berth);
  const user = await signUpAndIn(berth, "deploy");
  const call = async (method: string, path: string, body?: Buffer | string, type = "application/json") => {
    const response = await fetch(`http://127.0.0.1:${berth.port}${path}`, {
      method,
      headers: { ...(user.headers as Record<string, string>), ...(body !== undefined ? { "content-type": type } : {}) },
      ...(body !== undefined ? { body: typeof body === "string" ? body : new Uint8Array(body) } : {}),
    });
    const text = await response.text();
    if (response.status >= 300) throw new BenchError(`${method} ${path}: ${response.status} ${text}`);
    return text ? (JSON.parse(text) as unknown) : undefined;
  };
  const site = (await call("POST", "/api/sites", JSON.stringify({ name: "Deploy bench" }))) as SiteResponse;
  const files = Array.from({ length: FILES }, (_, i) => ({ path: `section${i % 25}/page${i}.html`, content: `<h1>Page ${i}</h1>\n`.repeat(20) }));
  const manifestOf = (list: typeof files) =>
    JSON.stringify({ files: list.map((f) => ({ path: f.path, sha256: sha256(f.content), size: Buffer.byteLength(f.content) })) });

  const firstStarted = performance.now();
  const first = (await call("POST", `/api/sites/${site.id}/deploys`, manifestOf(files))) as DeployResponse;
  await call(
    "POST",
    `/api/sites/${site.id}/deploys/${first.id}/files`,
    tarOf(files.map((f) => ({ name: sha256(f.content), content: f.content }))),
    "application/x-tar",
  );
  await call("POST", `/api/sites/${site.id}/deploys/${first.id}/publish`, "{}");
  console.log(`first deploy of ${FILES} files (all uploaded in one tar): ${(performance.now() - firstStarted).toFixed(0)} ms`);

  const walls: number[] = [];
  const cpus: number[] = [];
  for (let run = 0; run < options.runs + 2; run++) {
    await waitForQuiet(pid);
    const changed = files.map((f, i) => (i === 7 ? { ...f, content: `<h1>Changed ${run}</h1>` } : f));
    const cpuBefore = cpuTimeMs(pid);
    const started = performance.now();
    const deploy = (await call("POST", `/api/sites/${site.id}/deploys`, manifestOf(changed))) as DeployResponse;
    if (deploy.missing.length !== 1) throw new BenchError(`expected one missing file, got ${deploy.missing.length}`);
    await call("PUT", `/api/sites/${site.id}/deploys/${deploy.id}/files/${deploy.missing[0]}`, changed[7]!.content, "application/octet-stream");
    const published = (await call("POST", `/api/sites/${site.id}/deploys/${deploy.id}/publish`, "{}")) as DeployResponse;
    const wall = performance.now() - started;
    const cpu = cpuTimeMs(pid) - cpuBefore;
    if (published.status !== "published") throw new BenchError(`publish: ${JSON.stringify(published)}`);
    if (run < 2) continue;
    walls.push(wall);
    cpus.push(cpu);
  }
  const line = (label: string, values: number[]) =>
    `${label.padEnd(26)} median ${median(values).toFixed(0).padStart(4)} ms   min ${Math.min(...values)
      .toFixed(0)
      .padStart(4)}   max ${Math.max(...values)
      .toFixed(0)
      .padStart(4)}`;
  console.log(`redeploy of ${FILES} files, one changed (${options.runs} runs; load average ${loadAverage()}):`);
  console.log(line("  wall, end to end", walls));
  console.log(line("  server CPU (10 ms ticks)", cpus));
}

await runBench("deploy", () => parseArgs(process.argv.slice(2)), USAGE, main);
