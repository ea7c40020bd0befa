// Idle memory: Berth at rest on the embedded database and on PostgreSQL, beside nginx at rest.
//
//   npm run bench:memory                 # builds, then both databases (~6 min)
//   npx tsx bench/memory.ts --settle 30  # without building; a shorter wait before sampling
//
// Each server starts on a data directory that has started once already (migrations applied, the
// day's backup taken: what an installation looks like on any day but its first), with every
// setting at its default, backups included. Once /api/health answers, the bench waits `--settle`
// seconds (default 75: past the first compaction and trim at rest, idleMemory.ts), then reads VmRSS once a
// second for 15 s and keeps the median. Then it asks the admin socket for the V8 heap after a full
// collection, and reads /proc/<pid>/smaps for where the resident pages are: the node binary and
// libraries (file pages, shared with every other node process), the C allocator's heap, V8's heap
// pages and the rest of the anonymous memory (WebAssembly: PGlite's memory and compiled code).
// The first start's peak (VmHWM) is printed too: a new installation's database is created then.
import http from "node:http";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, startBerth, type Berth } from "../e2e/support/berth";
import { createBenchDatabase } from "./postgres";
import { BenchError, cleanups, loadAverage, median, memoryOf, pidOf, runBench, stopChild } from "./support";
import { takeSummaryOption, writeSummary, type Figure } from "./summary";

type Database = "pglite" | "postgres";

interface Options {
  settleSeconds: number;
  databases: Database[];
  summaryJson: string | undefined;
}

const USAGE = `Usage: npx tsx bench/memory.ts [--quick] [--settle SECONDS] [--only pglite|postgres] [--summary-json FILE]
  --settle SECONDS   wait this long after start-up before sampling (default 75)
  --quick            the same as --settle 30 (before the first compaction at rest)
  --only DATABASE    measure Berth on one database only (default: both)`;

const SAMPLE_SECONDS = 15;
/** The goals: resident memory at idle. */
const GOALS = { pglite: 200, postgres: 100 };

function parseArgs(allArgs: readonly string[]): Options | undefined {
  const { argv, summaryJson } = takeSummaryOption(allArgs);
  const options: Options = { settleSeconds: 75, databases: ["pglite", "postgres"], summaryJson };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--help" || arg === "-h") return undefined;
    if (arg === "--quick") options.settleSeconds = 30;
    else if (arg === "--settle") {
      options.settleSeconds = Number(argv[++i]);
      if (!Number.isFinite(options.settleSeconds) || options.settleSeconds < 0) throw new BenchError("--settle needs a number of seconds");
    } else if (arg === "--only") {
      const only = argv[++i];
      if (only !== "pglite" && only !== "postgres") throw new BenchError("--only needs pglite or postgres");
      options.databases = [only];
    } else throw new BenchError(`unknown option ${arg}\n${USAGE}`);
  }
  return options;
}

interface Breakdown {
  fileMb: number;
  mallocMb: number;
  v8PagesMb: number;
  otherAnonMb: number;
}

/** Resident pages by kind, from smaps: see the header. V8 allocates its heap in 256 KB pages. */
function breakdownOf(pid: number): Breakdown {
  const result = { fileMb: 0, mallocMb: 0, v8PagesMb: 0, otherAnonMb: 0 };
  let kind: keyof Breakdown = "otherAnonMb";
  for (const line of readFileSync(`/proc/${pid}/smaps`, "utf8").split("\n")) {
    const region = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (region) {
      const sizeKb = (parseInt(region[2]!, 16) - parseInt(region[1]!, 16)) / 1024;
      const name = region[3]!;
      kind = name === "[heap]" ? "mallocMb" : name.startsWith("/") ? "fileMb" : name === "" && sizeKb === 256 ? "v8PagesMb" : "otherAnonMb";
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) result[kind] += Number(rss[1]) / 1024;
  }
  return result;
}

interface HeapReport {
  heapUsed: number;
  heapTotal: number;
  external: number;
}

function heapOf(dataDir: string): Promise<HeapReport> {
  return new Promise((resolve, reject) => {
    const req = http.get({ socketPath: path.join(dataDir, "admin.sock"), path: "/memory" }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () => (res.statusCode === 200 ? resolve(JSON.parse(body) as HeapReport) : reject(new Error(`admin socket: ${res.statusCode}`))));
    });
    req.on("error", reject);
  });
}

const pause = (seconds: number) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));
const mb = (kb: number) => kb / 1024;

async function sampleRssMb(pid: number): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < SAMPLE_SECONDS; i++) {
    const memory = memoryOf(pid);
    if (!memory) throw new BenchError(`the server (pid ${pid}) exited while idle`);
    samples.push(mb(memory.rssKb));
    await pause(1);
  }
  return median(samples);
}

interface IdleResult {
  name: string;
  firstStartPeakMb: number;
  idleMb: number;
  breakdown: Breakdown;
  heap: HeapReport;
}

async function idleBerth(name: string, env: Record<string, string>, settleSeconds: number): Promise<IdleResult> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "berth-bench-memory-"));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  // As an installation runs: backups on, normal logging.
  const settings = { ...env, BERTH_BACKUP_DAILY: "true", BERTH_LOG_LEVEL: "warn" };
  const first: Berth = await startBerth(settings, { dataDir });
  // The first start creates the database and takes the day's backup; wait for the backup.
  for (let waited = 0; !readdirHasBackup(dataDir) && waited < 120; waited++) await pause(1);
  const firstStartPeakMb = mb(memoryOf(pidOf(first))?.hwmKb ?? Number.NaN);
  await first.stop({ keepDataDir: true });

  const berth = await startBerth(settings, { dataDir });
  cleanups.push(() => berth.stop({ keepDataDir: true }));
  const pid = pidOf(berth);
  console.log(`${name}: started again (pid ${pid}); waiting ${settleSeconds} s, then ${SAMPLE_SECONDS} s of samples`);
  await pause(settleSeconds);
  const idleMb = await sampleRssMb(pid);
  const breakdown = breakdownOf(pid);
  const heap = await heapOf(dataDir);
  await berth.stop({ keepDataDir: true });
  return { name, firstStartPeakMb, idleMb, breakdown, heap };
}

function readdirHasBackup(dataDir: string): boolean {
  try {
    return readFileSync(path.join(dataDir, "backups", `berth-${new Date().toISOString().slice(0, 10)}.tar.gz`)).length > 0;
  } catch {
    return false;
  }
}

/** nginx at rest: the master and its one worker, as the edge bench runs it. */
async function idleNginx(): Promise<number> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "berth-bench-memory-nginx-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const port = await freePort();
  writeFileSync(
    path.join(dir, "nginx.conf"),
    [
      "worker_processes 1;",
      `pid ${dir}/nginx.pid;`,
      `error_log ${dir}/error.log;`,
      "events { worker_connections 1024; }",
      `http { access_log off; server { listen 127.0.0.1:${port}; root ${dir}; } }`,
    ].join("\n"),
  );
  const child: ChildProcess = spawn("nginx", ["-p", dir, "-c", path.join(dir, "nginx.conf"), "-g", "daemon off;"], { stdio: "ignore" });
  let failed: Error | undefined;
  child.once("error", (error) => (failed = error));
  cleanups.push(() => stopChild(child, "SIGQUIT"));
  await pause(2);
  if (failed) throw new BenchError(`could not start nginx, the anchor (${failed.message}): apt-get install -y nginx`);
  if (child.exitCode !== null) throw new BenchError(`nginx exited with ${child.exitCode}; see ${dir}/error.log`);
  const workers = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  const rssMb = [child.pid!, ...workers].reduce((sum, pid) => sum + mb(memoryOf(pid)?.rssKb ?? 0), 0);
  await stopChild(child, "SIGQUIT");
  return rssMb;
}

async function main(options: Options): Promise<void> {
  console.log(`Memory bench: ${os.cpus().length} CPUs, Node ${process.version}, load ${loadAverage()}`);
  const nginx = await idleNginx();
  const rows: [IdleResult, number][] = [];
  if (options.databases.includes("pglite")) rows.push([await idleBerth("embedded database (PGlite)", {}, options.settleSeconds), GOALS.pglite]);
  if (options.databases.includes("postgres")) {
    const database = await createBenchDatabase("berth_bench_memory");
    cleanups.push(() => database.drop());
    rows.push([await idleBerth("PostgreSQL", { DATABASE_URL: database.url }, options.settleSeconds), GOALS.postgres]);
  }

  const f = (n: number) => n.toFixed(0);
  console.log(
    [
      "",
      "| server | idle RSS, MB | goal | first start's peak, MB | V8 heap used / total | node and libraries (file pages) | C allocator | V8 pages | other anonymous (WebAssembly…) |",
      "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
      ...rows.map(
        ([r, goal]) =>
          `| Berth, ${r.name} | **${f(r.idleMb)}** | ≤ ${goal} | ${f(r.firstStartPeakMb)} | ${f(r.heap.heapUsed / 2 ** 20)} / ${f(r.heap.heapTotal / 2 ** 20)} | ` +
          `${f(r.breakdown.fileMb)} | ${f(r.breakdown.mallocMb)} | ${f(r.breakdown.v8PagesMb)} | ${f(r.breakdown.otherAnonMb)} |`,
      ),
      `| nginx, 1 worker | ${nginx.toFixed(1)} | | | | | | | |`,
      "",
      `Idle: the median of ${SAMPLE_SECONDS} one-second samples after ${options.settleSeconds} s at rest; load ${loadAverage()}.`,
    ].join("\n"),
  );
  const figures: Figure[] = rows.map(([r, goal]) => ({
    figure: `idle RSS, ${r.name}`,
    value: Math.round(r.idleMb),
    unit: "MB",
    anchors: [{ label: "nginx at rest", value: Number(nginx.toFixed(1)) }],
    note: `goal ≤ ${goal} MB`,
  }));
  writeSummary(options.summaryJson, { bench: "memory", quick: options.settleSeconds < 60, figures, notes: [] });
}

await runBench("memory", () => parseArgs(process.argv.slice(2)), USAGE, main);
