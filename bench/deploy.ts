// Deploy bench: the `berth` CLI against rsync, the plainest way to put a folder somewhere, in the
// same run on the same machine.
//
//   0. Warm-up: first deploys on the data directory just made, and an rsync beside each, timed
//      apart. The file system's first writes in a new place cost several times what later ones
//      do (1.0-1.9 s for the same deploy that takes 0.6-0.7 s by the eighth), which is a fresh
//      install's cost, not a first deploy's.
//   1. First deploy of 1,000 files (10 MiB): the CLI (hash, manifest, upload, publish, into a new
//      site), the dashboard's zip path (the same files as one stored zip, POSTed with extract=true;
//      making the zip is not timed), and `rsync -a` of the folder into an empty directory.
//   2. Redeploy with one 2 KiB file changed: the CLI's wall time and the bytes it sends (counted
//      by a TCP proxy between it and the server: request heads included), against the manifest
//      plus the file, and against `rsync -a --stats` making the same change.
//   3. Server memory while a 1 GiB folder (100 files of 10 MiB) deploys through the CLI.
//
//   npm run bench:deploy               # builds, then runs (about 3 minutes)
//   npx tsx bench/deploy.ts --quick    # dist/ as it is; 1 run per figure, a 256 MiB folder in part 3
//
// Options: --runs N (runs per figure, default 3; the redeploy gets 2N), --quick, --postgres (a new
// database of the tests' PostgreSQL server instead of embedded PGlite),
// --summary-json FILE, --help.
import { execFile } from "node:child_process";
import { randomBytes, createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { SiteResponse } from "../common/sites";
import { freePort, root, setPlan, startBerth, type Berth } from "../e2e/support/berth";
import { writeZip } from "../server/test/uploads/zipBuilder";
import { createSite, multipart, signUpAndIn, type BenchUser } from "./account";
import { BenchError, cleanups, loadAverage, median, pidOf, RssSampler, runBench, sendTimed, times } from "./support";
import { createBenchDatabase } from "./postgres";
import { parseBenchArgs, writeSummary, type Figure } from "./summary";

const run = promisify(execFile);

/** The CLI as `npm pack ./cli` ships it. */
const CLI = path.join(root, "cli/dist/berth.js");
const KiB = 1024;
const MiB = 1024 * KiB;
const FILES = 1000;
const FOLDER_BYTES = 10 * MiB;
const CHANGED_FILE = "notes/changed.html";
const CHANGED_BYTES = 2 * KiB;
const GOALS = { firstVsRsync: 3, redeployMs: 300, redeployBytesSlack: 1.2 } as const;

interface Options {
  runs: number;
  warmUp: number;
  quick: boolean;
  postgres: boolean;
  summaryJson: string | undefined;
}

const USAGE = `Usage: npm run bench:deploy -- [--quick] [--runs N] [--warm-up N] [--postgres] [--summary-json FILE]
  --runs N             runs per figure (default 3; the redeploy gets twice as many)
  --postgres           the server on a new database of the PostgreSQL server the tests use, instead of embedded PGlite
  --warm-up N          first deploys on the new data directory before the timed ones (default 6)
  --quick              one run per figure, 2 warm-up deploys and a 256 MiB folder for the memory part: a smoke test
  --summary-json FILE  also write the headline figures as JSON`;

function parseArgs(allArgs: readonly string[]): Options | undefined {
  return parseBenchArgs<Options>(
    allArgs,
    USAGE,
    (summaryJson) => ({ runs: 3, warmUp: 6, quick: false, postgres: false, summaryJson }),
    (options, arg, number) => {
      if (arg === "--quick") Object.assign(options, { runs: 1, warmUp: 2, quick: true });
      else if (arg === "--postgres") options.postgres = true;
      else if (arg === "--runs") options.runs = number();
      else if (arg === "--warm-up") options.warmUp = number();
      else return false;
      return true;
    },
  );
}

let tmp = "";

// ---------------------------------------------------------------------------------------------
// The folder.

/**
 * 1,000 files of random bytes (nothing compresses), in 10 folders, sizes varied around 10 KiB so
 * they add up to exactly FOLDER_BYTES; one of them is the 2 KiB file the redeploy changes.
 */
function writeFolder(dir: string): { path: string; bytes: Buffer }[] {
  const files: { path: string; bytes: Buffer }[] = [{ path: CHANGED_FILE, bytes: randomBytes(CHANGED_BYTES) }];
  // Random like the rest, so that no run's files are already on the server: 16 bytes, since one
  // byte has only 256 values, and a dozen folders in a run met an earlier one's now and then.
  const index = randomBytes(16);
  let left = FOLDER_BYTES - CHANGED_BYTES - index.length;
  files.push({ path: "index.html", bytes: index });
  for (let i = 0; files.length < FILES; i++) {
    const remaining = FILES - files.length;
    const size = remaining === 1 ? left : Math.round((left / remaining) * (0.5 + ((i * 7919) % 1000) / 1000));
    files.push({ path: `part-${i % 10}/file-${i}.bin`, bytes: randomBytes(size) });
    left -= size;
  }
  for (const file of files) {
    mkdirSync(path.dirname(path.join(dir, file.path)), { recursive: true });
    writeFileSync(path.join(dir, file.path), file.bytes);
  }
  return files;
}

// ---------------------------------------------------------------------------------------------
// The CLI, rsync and the dashboard's zip path.

interface CliRun {
  ms: number;
  result: { site: string; version: number; url: string; files_uploaded: number; bytes_uploaded: number };
}

async function cliDeploy(server: string, token: string, dir: string, args: string[]): Promise<CliRun> {
  const started = performance.now();
  const { stdout } = await run(process.execPath, [CLI, "deploy", dir, "--json", ...args], {
    env: { PATH: process.env.PATH ?? "", HOME: tmp, BERTH_SERVER: server, BERTH_TOKEN: token },
    maxBuffer: 16 * MiB,
  }).catch((error: Error & { stderr?: string }) => {
    throw new BenchError(`berth deploy failed: ${error.stderr ?? error.message}`);
  });
  return { ms: performance.now() - started, result: JSON.parse(stdout) as CliRun["result"] };
}

/**
 * `rsync -a` and then `sync -f` on the copy's file system: the same copy made durable, as Berth
 * makes every stored file before the database refers to it. A second anchor, to tell the cost of
 * durability from the rest; the goal is against rsync alone.
 */
async function rsyncDurable(from: string, to: string): Promise<number> {
  const started = performance.now();
  await run("rsync", ["-a", `${from}/`, `${to}/`]);
  await run("sync", ["-f", to]);
  return performance.now() - started;
}

async function rsync(from: string, to: string): Promise<{ ms: number; bytesSent: number }> {
  const started = performance.now();
  const { stdout } = await run("rsync", ["-a", "--stats", `${from}/`, `${to}/`]);
  const ms = performance.now() - started;
  const sent = /Total bytes sent: ([\d,.]+)/.exec(stdout)?.[1];
  return { ms, bytesSent: Number(sent?.replace(/[,.]/g, "") ?? Number.NaN) };
}

async function zipDeploy(berth: Berth, user: BenchUser, site: SiteResponse, dir: string, files: { path: string; bytes: Buffer }[]): Promise<number> {
  const zip = path.join(dir, "..", "folder.zip");
  await writeZip(
    zip,
    files.map((f) => ({ name: f.path, data: f.bytes, method: "store" as const })),
  );
  const { body, headers } = multipart({ extract: "true" }, { name: "folder.zip", content: readFileSync(zip), type: "application/zip" });
  const response = await sendTimed(berth.port, `/api/sites/${site.id}/files`, { ...user.headers, ...headers }, body);
  if (response.status !== 201) throw new BenchError(`zip upload: ${response.status} ${response.body}`);
  rmSync(zip);
  return response.respondedAt - response.startedAt;
}

// ---------------------------------------------------------------------------------------------
// Counting what the client sends.

/** A TCP proxy in front of the server that counts the bytes clients send through it. */
async function startCountingProxy(target: number): Promise<{ port: number; sent(): number; reset(): void; close(): Promise<void> }> {
  let sent = 0;
  const server = net.createServer((client) => {
    const upstream = net.connect(target, "127.0.0.1");
    client.on("data", (chunk: Buffer) => (sent += chunk.length));
    client.pipe(upstream).pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    port,
    sent: () => sent,
    reset: () => (sent = 0),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The manifest as the CLI sends it: path, digest and size of every file. */
function manifestBytes(files: { path: string; bytes: Buffer }[]): number {
  const entries = files.map((f) => ({ path: f.path, sha256: createHash("sha256").update(f.bytes).digest("hex"), size: f.bytes.length }));
  return Buffer.byteLength(JSON.stringify({ files: entries, message: null, draft: false }));
}

// ---------------------------------------------------------------------------------------------

async function createToken(berth: Berth, user: BenchUser): Promise<string> {
  const body = Buffer.from(JSON.stringify({ name: "bench", permission: "full" }));
  const response = await sendTimed(berth.port, "/api/tokens", { ...user.headers, "content-type": "application/json" }, body);
  if (response.status !== 201) throw new BenchError(`create token: ${response.status} ${response.body}`);
  return (JSON.parse(response.body) as { secret: string }).secret;
}

const ms = (value: number) => `${value.toFixed(0)} ms`;
const kib = (value: number) => `${(value / KiB).toFixed(1)} KiB`;

async function main(options: Options): Promise<number> {
  tmp = mkdtempSync(path.join(os.tmpdir(), "berth-bench-deploy-"));
  cleanups.push(() => rmSync(tmp, { recursive: true, force: true }));
  await run("rsync", ["--version"]).catch(() => {
    throw new BenchError("rsync is not installed (apt-get install -y rsync): it is this bench's anchor");
  });

  const database = options.postgres ? await createBenchDatabase("berth_bench_deploy") : undefined;
  if (database) cleanups.push(() => database.drop());
  const databaseEnv: Record<string, string> = database ? { DATABASE_URL: database.url } : {};
  const berth = await startBerth({ BERTH_LOG_LEVEL: "warn", ...databaseEnv });
  cleanups.push(() => berth.stop());
  const user = await signUpAndIn(berth, "deploy");
  // Pro: the 1 GiB folder of part 3 is over the Free plan's storage.
  if ((await setPlan(berth, user.email, "pro", databaseEnv)) !== 0) throw new BenchError("could not move the bench user to Pro");
  const token = await createToken(berth, user);
  const server = `http://127.0.0.1:${berth.port}`;
  console.log(
    `Deploy bench: ${os.cpus().length} cores, Node ${process.version}, ${database ? "PostgreSQL" : "embedded PGlite"}; load average ${loadAverage()}`,
  );

  // Part 0: the data directory's first deploys, timed apart from the rest.
  console.log(`Warm-up: ${options.warmUp} first deploys on the data directory just made`);
  const fresh = { cli: [] as number[], rsync: [] as number[] };
  for (let i = 0; i < options.warmUp; i++) {
    const dir = path.join(tmp, `warm-${i}`);
    writeFolder(dir);
    fresh.cli.push((await cliDeploy(server, token, dir, ["--create", `Warm-up ${i}`])).ms);
    fresh.rsync.push((await rsync(dir, path.join(tmp, `rsync-warm-${i}`))).ms);
    rmSync(dir, { recursive: true });
    rmSync(path.join(tmp, `rsync-warm-${i}`), { recursive: true });
    console.log(`  run ${i + 1}: CLI ${ms(fresh.cli.at(-1)!)}, rsync ${ms(fresh.rsync.at(-1)!)}`);
  }

  // Part 1: first deploys, each of a folder with new bytes, so nothing is on the server yet.
  console.log(`Part 1: first deploy of ${FILES} files (${FOLDER_BYTES / MiB} MiB), ${options.runs} runs each`);
  const first = { cli: [] as number[], zip: [] as number[], rsync: [] as number[], durable: [] as number[] };
  let redeployDir = "";
  let redeployFiles: { path: string; bytes: Buffer }[] = [];
  let redeploySite = "";
  for (let i = 0; i < options.runs; i++) {
    const dir = path.join(tmp, `first-${i}`);
    const files = writeFolder(dir);
    const cli = await cliDeploy(server, token, dir, ["--create", `Bench ${i}`]);
    if (cli.result.files_uploaded !== FILES) throw new BenchError(`the first deploy uploaded ${cli.result.files_uploaded} files, not ${FILES}`);
    first.cli.push(cli.ms);
    const copy = await rsync(dir, path.join(tmp, `rsync-${i}`));
    first.rsync.push(copy.ms);
    first.durable.push(await rsyncDurable(dir, path.join(tmp, `rsync-durable-${i}`)));
    // The same files under new bytes again for the zip path, so it too stores everything.
    const zipDir = path.join(tmp, `zip-${i}`);
    const zipFiles = writeFolder(zipDir);
    const site = await createSite(berth.port, user, `Zip ${i}`, { name: "index.html", content: "<h1>zip</h1>", type: "text/html" });
    first.zip.push(await zipDeploy(berth, user, site, zipDir, zipFiles));
    rmSync(zipDir, { recursive: true });
    console.log(
      `  run ${i + 1}: CLI ${ms(cli.ms)}, dashboard zip ${ms(first.zip.at(-1)!)}, rsync ${ms(copy.ms)}, rsync then sync ${ms(first.durable.at(-1)!)}`,
    );
    if (i === 0) {
      redeployDir = dir;
      redeployFiles = files;
      redeploySite = cli.result.site;
    } else rmSync(dir, { recursive: true });
  }

  // Part 2: one 2 KiB file changed, deployed again; rsync makes the same change to its copy.
  const redeploys = options.runs * 2;
  console.log(`Part 2: redeploy with ${CHANGED_FILE} (${CHANGED_BYTES} B) changed, ${redeploys} runs`);
  const proxy = await startCountingProxy(berth.port);
  cleanups.push(() => proxy.close());
  const again = { cliMs: [] as number[], cliBytes: [] as number[], rsyncMs: [] as number[], rsyncBytes: [] as number[] };
  for (let i = 0; i < redeploys; i++) {
    const changed = randomBytes(CHANGED_BYTES);
    writeFileSync(path.join(redeployDir, CHANGED_FILE), changed);
    redeployFiles = redeployFiles.map((f) => (f.path === CHANGED_FILE ? { path: f.path, bytes: changed } : f));
    // Odd runs go through the counting proxy, even runs straight to the server for the time.
    const counted = i % 2 === 1;
    proxy.reset();
    const cli = await cliDeploy(counted ? `http://127.0.0.1:${proxy.port}` : server, token, redeployDir, ["--site", redeploySite]);
    if (cli.result.files_uploaded !== 1) throw new BenchError(`the redeploy uploaded ${cli.result.files_uploaded} files, not 1`);
    if (counted) again.cliBytes.push(proxy.sent());
    else again.cliMs.push(cli.ms);
    const copy = await rsync(redeployDir, path.join(tmp, "rsync-0"));
    again.rsyncMs.push(copy.ms);
    again.rsyncBytes.push(copy.bytesSent);
    console.log(`  run ${i + 1}: CLI ${counted ? `${kib(proxy.sent())} sent` : ms(cli.ms)}, rsync ${ms(copy.ms)} (${kib(copy.bytesSent)} sent)`);
  }
  const manifest = manifestBytes(redeployFiles);

  // Part 3: the server's memory while a large folder deploys.
  const largeFiles = options.quick ? 26 : 100;
  const largeDir = path.join(tmp, "large");
  for (let i = 0; i < largeFiles; i++) {
    mkdirSync(largeDir, { recursive: true });
    writeFileSync(path.join(largeDir, `blob-${i}.bin`), randomBytes(10 * MiB));
  }
  const largeBytes = largeFiles * 10 * MiB;
  console.log(`Part 3: server RSS while ${largeFiles} files (${largeBytes / MiB} MiB) deploy through the CLI`);
  const sampler = new RssSampler(pidOf(berth));
  sampler.start(10);
  const large = await cliDeploy(server, token, largeDir, ["--create", "Large"]);
  const memory = sampler.stop();
  rmSync(largeDir, { recursive: true });
  const growthMiB = (memory.hwmKb - memory.beforeKb) / 1024;
  console.log(
    `  ${ms(large.ms)}; RSS before ${(memory.beforeKb / 1024).toFixed(1)} MiB, peak ${(memory.hwmKb / 1024).toFixed(1)} MiB (+${growthMiB.toFixed(1)} MiB)`,
  );

  await proxy.close();
  await berth.stop();

  const firstCli = median(first.cli);
  const firstRsync = median(first.rsync);
  const firstDurable = median(first.durable);
  const redeployMs = median(again.cliMs);
  const redeployBytes = median(again.cliBytes);
  const floorBytes = manifest + CHANGED_BYTES;
  const figures: Figure[] = [
    ...(options.warmUp > 0
      ? [
          {
            figure: `first deploy on a data directory just made (the ${options.warmUp} warm-up runs)`,
            value: median(fresh.cli),
            unit: "ms",
            anchors: [{ label: "rsync -a", value: median(fresh.rsync) }],
          },
        ]
      : []),
    {
      figure: `first deploy, ${FILES} files (${FOLDER_BYTES / MiB} MiB), CLI`,
      value: firstCli,
      unit: "ms",
      anchors: [
        { label: "rsync -a", value: firstRsync },
        { label: "rsync -a then sync -f", value: firstDurable },
      ],
    },
    {
      figure: "first deploy, dashboard zip path",
      value: median(first.zip),
      unit: "ms",
      anchors: [
        { label: "rsync -a", value: firstRsync },
        { label: "rsync -a then sync -f", value: firstDurable },
      ],
    },
    {
      figure: "redeploy, one 2 KiB file changed, CLI",
      value: redeployMs,
      unit: "ms",
      anchors: [{ label: "rsync -a", value: median(again.rsyncMs) }],
    },
    {
      figure: "redeploy, bytes sent by the client",
      value: redeployBytes,
      unit: "B",
      anchors: [
        { label: "manifest + file", value: floorBytes },
        { label: "rsync -a", value: median(again.rsyncBytes) },
      ],
    },
    {
      figure: `server RSS growth while ${largeBytes / MiB} MiB deploy`,
      value: growthMiB,
      unit: "MiB",
      anchors: [{ label: "the bytes deployed", value: largeBytes / MiB }],
    },
  ];
  console.log("\nSummary (median of the runs)");
  for (const f of figures) {
    const anchors = f.anchors.map((a) => `${a.label} ${a.value.toFixed(1)} ${f.unit} (× ${times(f.value, a.value, 2)})`).join(", ");
    console.log(`  ${f.figure}: ${f.value.toFixed(1)} ${f.unit}; ${anchors}`);
  }
  const goals = [
    [`first deploy ≤ ${GOALS.firstVsRsync}× rsync`, firstCli <= GOALS.firstVsRsync * firstRsync],
    [`redeploy ≤ ${GOALS.redeployMs} ms`, redeployMs <= GOALS.redeployMs],
    [`redeploy bytes ≤ (manifest + file) × ${GOALS.redeployBytesSlack}`, redeployBytes <= floorBytes * GOALS.redeployBytesSlack],
  ] as const;
  for (const [goal, met] of goals) console.log(`  goal ${goal}: ${met ? "met" : "NOT met"}`);
  console.log(`load average at the end ${loadAverage()}`);
  writeSummary(options.summaryJson, { bench: "deploy", quick: options.quick, figures, notes: [`manifest ${manifest} B`] });
  return 0;
}

void runBench("deploy", () => parseArgs(process.argv.slice(2)), USAGE, main);
