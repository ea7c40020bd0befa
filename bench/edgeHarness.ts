// The shared static-serving harness (../shared/bench: vs-nginx.sh → run-bench.mjs) as the edge
// bench drives it: what it needs before it starts, one run of it with the sanity problems it
// reports, the medians of its results, and the peak memory of each Berth server it starts.
import { spawn } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { root, serverEntry } from "../e2e/support/berth";
import { BenchError, cleanups, median, memoryOf, stopChild } from "./support";

/** Next to the project, or where BERTH_BENCH_HARNESS says (a git worktree sits elsewhere). */
export const HARNESS = path.resolve(process.env.BERTH_BENCH_HARNESS ?? path.resolve(root, "../shared/bench"));
const NGINX_PORT = 8081; // fixed in run-bench.mjs
const BROTLI_MODULE = "/usr/lib/nginx/modules/ngx_http_brotli_static_module.so"; // loaded by its nginx.conf
export const CASES = ["small", "medium", "large", "404", "gzip", "many"] as const;
export type HarnessCase = (typeof CASES)[number];
const RSS_POLL_MS = 250;

export const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

// ---------------------------------------------------------------------------------------------
// Preconditions: the harness, the tools, the corpus, nginx's port.

function onPath(command: string): boolean {
  return (process.env.PATH ?? "").split(path.delimiter).some((dir) => dir !== "" && existsSync(path.join(dir, command)));
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(false);
    });
    socket.once("error", () => resolve(true));
  });
}

function run(command: string, args: readonly string[]): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: "inherit" });
    child.once("error", reject);
    child.once("exit", (code) => resolve(code));
  });
}

/** Stops with what to install when something is missing; makes the corpus when it is. */
export async function checkPreconditions(corpus: string): Promise<void> {
  for (const file of ["run-bench.mjs", "vs-nginx.sh", "make-corpus.mjs"]) {
    if (!existsSync(path.join(HARNESS, file))) {
      throw new BenchError(
        `The static-serving harness is missing: no ${path.join(HARNESS, file)}. It is expected in ../shared/bench next to the project (${root}).`,
      );
    }
  }
  const missing = ["nginx", "wrk", "taskset"].filter((tool) => !onPath(tool));
  if (!existsSync(BROTLI_MODULE)) missing.push(`nginx's brotli_static module (${BROTLI_MODULE})`);
  if (missing.length > 0) {
    const setup = path.relative(process.cwd(), path.join(HARNESS, "setup.sh")) || path.join(HARNESS, "setup.sh");
    throw new BenchError(`Missing: ${missing.join(", ")}. Install the bench tools once with:\n  bash ${setup}   (as root; runs apt-get)`);
  }
  if (!existsSync(serverEntry)) throw new BenchError(`No ${serverEntry}: build first (npm run build), or use npm run bench:edge, which builds.`);
  if (!existsSync(path.join(corpus, "index.html")) || !existsSync(`${corpus}.paths`)) {
    console.log(`Corpus: making ${corpus}`);
    const code = await run(process.execPath, [path.join(HARNESS, "make-corpus.mjs"), corpus]);
    if (code !== 0) throw new BenchError(`make-corpus.mjs failed (exit ${String(code)})`);
  }
  if (!(await portFree(NGINX_PORT))) {
    throw new BenchError(`Port ${NGINX_PORT} is in use; the harness runs nginx there. Is another bench running?`);
  }
}

// ---------------------------------------------------------------------------------------------
// A run of the harness, and its results.

export interface HarnessRun {
  code: number | null;
  /** The `!!` lines of its sanity check: a case whose answers were not what nginx's were. */
  sanityProblems: string[];
}

/** Runs vs-nginx.sh with `args`, its output passed through; `onSpawn` gets its pid. */
export function runHarness(args: readonly string[], onSpawn: (pid: number) => void): Promise<HarnessRun> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", [path.join(HARNESS, "vs-nginx.sh"), ...args], { cwd: root, stdio: ["ignore", "pipe", "inherit"] });
    if (child.pid !== undefined) onSpawn(child.pid);
    const sanityProblems: string[] = [];
    let pending = "";
    child.stdout.on("data", (chunk: Buffer) => {
      process.stdout.write(chunk);
      pending += chunk.toString();
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) if (line.startsWith("!!")) sanityProblems.push(line);
    });
    child.once("error", reject);
    const exited = new Promise<void>((done) => child.once("exit", () => done()));
    child.once("exit", (code) => resolve({ code, sanityProblems }));
    // The harness stops its own servers on SIGINT or SIGTERM, so a signal is passed on (Ctrl-C
    // reaches it anyway: same process group); the data directory can go once it has exited.
    cleanups.push((signal) => (signal ? stopChild(child, signal) : exited));
  });
}

export interface HarnessRecord {
  req_per_srv_cpu_s: number;
  p99_ms: number;
  mode: string;
  server: string;
  case: string;
  ok: boolean;
  noisy: boolean;
  rps: number;
  rss_mb: number;
  errors: number;
  non2xx: number;
}

/** The runs a harness wrote into `out`, or undefined when it wrote none. */
export function readResults(out: string): HarnessRecord[] | undefined {
  const file = path.join(out, "results.json");
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as { results: HarnessRecord[] }).results : undefined;
}

/** Median req/s over clean runs (all runs when none is clean), as the harness's summary does. */
export function medianRps(records: readonly HarnessRecord[], server: string, cas: string): number {
  const all = records.filter((r) => r.server === server && r.case === cas && r.ok);
  const clean = all.filter((r) => !r.noisy);
  const picked = clean.length > 0 ? clean : all;
  return picked.length > 0 ? median(picked.map((r) => r.rps)) : Number.NaN;
}

// ---------------------------------------------------------------------------------------------
// Berth's memory while the harness runs it: VmHWM of each server process it starts.

export interface ServerRss {
  pid: number;
  hwmKb: number;
  rssKb: number;
}

/**
 * The node process serving `dataDir`. run-bench.mjs runs `taskset … bash -c 'exec env … node …'`,
 * and each of those execs, so the server is a direct child of the harness process (vs-nginx.sh
 * execs run-bench.mjs in place too). /proc/<pid>/task/<tid>/children lists them without a scan of
 * /proc, which would count as foreign CPU in the harness's noise check.
 */
function findServer(harnessPid: number, dataDir: string): number | undefined {
  const marker = `\0BERTH_DATA_DIR=${dataDir}\0`;
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${harnessPid}/task`);
  } catch {
    return undefined;
  }
  for (const tid of tasks) {
    let children: string[];
    try {
      children = readFileSync(`/proc/${harnessPid}/task/${tid}/children`, "utf8").split(" ").filter(Boolean);
    } catch {
      continue;
    }
    for (const child of children) {
      try {
        if (!readFileSync(`/proc/${child}/cmdline`, "utf8").includes(serverEntry)) continue;
        if (`\0${readFileSync(`/proc/${child}/environ`, "utf8")}`.includes(marker)) return Number(child);
      } catch {
        // gone already
      }
    }
  }
  return undefined;
}

/**
 * Polls the server's /proc/<pid>/status. VmHWM only grows, so the last reading before the process
 * exits is its peak, give or take what it gained in the final poll interval (the harness stops it
 * right after the last case). The harness starts a new server per round; each gets its own entry.
 */
export class ServerRssWatcher {
  readonly servers: ServerRss[] = [];
  private current: ServerRss | undefined;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly harnessPid: number,
    private readonly dataDir: string,
  ) {
    this.timer = setInterval(() => this.poll(), RSS_POLL_MS);
  }

  stop(): ServerRss[] {
    clearInterval(this.timer);
    this.poll();
    return this.servers;
  }

  private poll(): void {
    if (this.current) {
      const memory = memoryOf(this.current.pid);
      if (memory) {
        this.current.hwmKb = Math.max(this.current.hwmKb, memory.hwmKb);
        this.current.rssKb = memory.rssKb;
        return;
      }
      this.current = undefined;
    }
    const pid = findServer(this.harnessPid, this.dataDir);
    if (pid === undefined || this.servers.some((s) => s.pid === pid)) return;
    const memory = memoryOf(pid);
    if (!memory) return;
    this.current = { pid, hwmKb: memory.hwmKb, rssKb: memory.rssKb };
    this.servers.push(this.current);
  }
}
