// Edge bench: Berth's edge against nginx, serving the same static corpus in the same run, through
// the shared static-serving harness (../shared/bench: run-bench.mjs via vs-nginx.sh). Prints the
// harness's tables (ratio = Berth / nginx per case), a compact req/s table, and Berth's peak RSS.
//
//   npm run bench:edge                      # builds, then 3 rounds x 10 s per case (~9 min on a quiet machine)
//   npm run bench:edge -- --quick           # 1 round x 5 s, short waits for a quiet machine (~2.5 min)
//   npm run bench:edge -- --cases medium,many --runs 5   # any run-bench.mjs option passes through
//   npx tsx bench/edge.ts --quick           # without building (uses dist/ as it is)
//
// Own options: --quick (= --runs 1 --duration 5 --retries 1 --quiet-wait 20), --keep-data (keep the
// data directory), --help. Options after --quick override it (run-bench.mjs keeps the last value).
// Steps: corpus and tools check → a data directory with the corpus live as a site, created through
// the real API as a user would, with Berth's own brotli/gzip forms made (the corpus's .gz/.br are
// left out) → the harness starts that server itself, once per round, next to nginx, while this
// script reads the server's VmHWM from /proc.
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { SiteResponse } from "../common/sites";
import { freePort, getWithHost, root, runBerth, serverEntry, type RunningProcess } from "../e2e/support/berth";
import { waitFor } from "../e2e/support/pages";
import { openDatabase, rowsOf } from "../server/db/client";
import { blobsAwaitingCompression } from "../server/db/repositories/variants";
import { MIN_COMPRESS_BYTES } from "../server/services/compressVariants";
import { Outbox } from "../server/test/outbox";
import { multipartBody } from "../server/test/sites";
import { writeZip, type ZipEntrySpec } from "../server/uploads/testing/zipBuilder";
import { cpuTimeMs, median, sendTimed } from "./support";
import { compareSideBySide, type SideBySideCase } from "./analyticsSideBySide";
import { takeSummaryOption, writeSummary, type Figure } from "./summary";

const HARNESS = path.resolve(root, "../shared/bench");
const NGINX_PORT = 8081; // fixed in run-bench.mjs
const BROTLI_MODULE = "/usr/lib/nginx/modules/ngx_http_brotli_static_module.so"; // loaded by its nginx.conf
const CASES = ["small", "medium", "large", "404", "gzip", "many"] as const;
/** Cases measured again with analytics collection on and off, side by side (analyticsSideBySide.ts). */
const ANALYTICS_CASES = ["small", "many"] as const;
/** How each case reads in bench/all.ts's table (the harness's case names are terse). */
const CASE_LABELS: Record<string, string> = {
  small: "small GET /index.html (2 KB)",
  medium: "medium GET /app.js (150 KB)",
  large: "large 10 MiB PDF",
  "404": "404",
  gzip: "gzip (br served by both)",
  many: "many (1,000 files, 1–8 KB)",
  "many, like for like": "many, like for like (paths both answer 200)",
};
const RSS_POLL_MS = 250;

const cleanups: Array<() => Promise<void> | void> = [];

class BenchError extends Error {}

// ---------------------------------------------------------------------------------------------
// Arguments: ours, and the rest for run-bench.mjs.

interface Options {
  quick: boolean;
  keepData: boolean;
  /** --no-analytics-off: skip small and many with analytics collection on and off, side by side. */
  skipAnalyticsOff: boolean;
  /** Passed to run-bench.mjs as they are (after ours). */
  passThrough: string[];
  /** The corpus run-bench.mjs serves (its --root). */
  corpus: string;
  out: string | undefined;
  /** --summary-json: where to write the headline figures for bench/all.ts. */
  summaryJson: string | undefined;
}

function parseArgs(allArgs: readonly string[]): Options | undefined {
  let taken: ReturnType<typeof takeSummaryOption>;
  try {
    taken = takeSummaryOption(allArgs);
  } catch (error) {
    throw new BenchError((error as Error).message);
  }
  const { argv, summaryJson } = taken;
  const options: Options = { quick: false, keepData: false, skipAnalyticsOff: false, passThrough: [], corpus: "/tmp/bench-site", out: undefined, summaryJson };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--help" || arg === "-h") return undefined;
    if (arg === "--quick") options.quick = true;
    else if (arg === "--keep-data") options.keepData = true;
    else if (arg === "--no-analytics-off") options.skipAnalyticsOff = true;
    else {
      // Mirror run-bench.mjs's parsing (--k v or --k=v) to learn --root and --out.
      options.passThrough.push(arg);
      const match = /^--(root|out)(?:=(.*))?$/s.exec(arg);
      if (match) {
        const value = match[2] ?? (argv[i + 1] !== undefined && !argv[i + 1]!.startsWith("--") ? argv[i + 1] : undefined);
        if (match[2] === undefined && value !== undefined) options.passThrough.push(argv[++i]!);
        if (value === undefined) throw new BenchError(`--${match[1]} needs a value`);
        if (match[1] === "root") options.corpus = path.resolve(value);
        else options.out = path.resolve(value);
      }
    }
  }
  return options;
}

const USAGE = `Usage: npm run bench:edge -- [--quick] [--keep-data] [run-bench.mjs options]
  --quick       1 round x 5 s per case instead of 3 x 10 s, and at most 20 s of waiting for a quiet
                machine and 1 retry per measurement (= --runs 1 --duration 5 --retries 1 --quiet-wait 20)
  --keep-data   keep Berth's data directory (the site) after the run
  --no-analytics-off  skip small and many with analytics collection on and off, side by side on one core
  --summary-json FILE  also write the headline figures there as JSON (for bench/all.ts)
  Any other option goes to ${path.join(HARNESS, "run-bench.mjs")}, e.g. --cases small,many --runs 5 --out DIR.
  Not for --servers/--extra-*/--host: this script sets them.`;

// ---------------------------------------------------------------------------------------------
// Preconditions: the harness, the tools, the corpus, the ports.

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

async function checkPreconditions(options: Options): Promise<void> {
  for (const file of ["run-bench.mjs", "vs-nginx.sh", "make-corpus.mjs"]) {
    if (!existsSync(path.join(HARNESS, file))) {
      throw new BenchError(`The static-serving harness is missing: no ${path.join(HARNESS, file)}. It is expected in ../shared/bench next to the project (${root}).`);
    }
  }
  const missing = ["nginx", "wrk", "taskset"].filter((tool) => !onPath(tool));
  if (!existsSync(BROTLI_MODULE)) missing.push(`nginx's brotli_static module (${BROTLI_MODULE})`);
  if (missing.length > 0) {
    throw new BenchError(`Missing: ${missing.join(", ")}. Install the bench tools once with:\n  bash ${path.relative(process.cwd(), path.join(HARNESS, "setup.sh")) || path.join(HARNESS, "setup.sh")}   (as root; runs apt-get)`);
  }
  if (!existsSync(serverEntry)) throw new BenchError(`No ${serverEntry}: build first (npm run build), or use npm run bench:edge, which builds.`);
  if (!existsSync(path.join(options.corpus, "index.html")) || !existsSync(`${options.corpus}.paths`)) {
    console.log(`Corpus: making ${options.corpus}`);
    const code = await run(process.execPath, [path.join(HARNESS, "make-corpus.mjs"), options.corpus]);
    if (code !== 0) throw new BenchError(`make-corpus.mjs failed (exit ${String(code)})`);
  }
  if (!(await portFree(NGINX_PORT))) {
    throw new BenchError(`Port ${NGINX_PORT} is in use; the harness runs nginx there. Is another bench running?`);
  }
}

// ---------------------------------------------------------------------------------------------
// The data directory: the corpus as a live site, created through the API as a person would.

interface Prepared {
  dataDir: string;
  port: number;
  /** The site's Host header, e.g. qwert.localhost:40123. */
  host: string;
  subdomain: string;
  files: number;
  bytes: number;
  /** Per harness case, the requests Berth answers with another status than nginx does. */
  mismatches: CaseMismatch[];
  /** From the publish until the server went idle: the background compression. */
  compressSeconds: number;
}

interface CaseMismatch {
  case: (typeof CASES)[number];
  /** e.g. "301 → /" for one path, or "167 of 1000 paths: 301" for the many case. */
  detail: string;
  /** The many case's paths that answer otherwise than nginx. */
  paths?: string[];
}

/** Status and Location of one GET, body discarded. */
function statusOf(port: number, host: string, urlPath: string, agent: http.Agent): Promise<{ status: number; location: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path: urlPath, headers: { host }, agent }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, location: res.headers.location }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

/**
 * Every path the harness requests, against what nginx answers for the same corpus (200 for a
 * file, 404 for /no/such/page.html). A case whose requests get other statuses from Berth (a clean
 * URL redirect, say) measures different work, so its ratio must not be read as like for like.
 */
async function checkCasePaths(port: number, host: string, corpus: string): Promise<CaseMismatch[]> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const mismatches: CaseMismatch[] = [];
    const single: Array<[CaseMismatch["case"], string, number]> = [
      ["small", "/index.html", 200],
      ["medium", "/app.js", 200],
      ["large", "/files/report.pdf", 200],
      ["404", "/no/such/page.html", 404],
    ];
    for (const [cas, urlPath, expected] of single) {
      const { status, location } = await statusOf(port, host, urlPath, agent);
      if (status !== expected) mismatches.push({ case: cas, detail: `GET ${urlPath}: ${status}${location ? ` → ${location}` : ""} (nginx: ${expected})` });
    }
    const paths = readFileSync(`${corpus}.paths`, "utf8").split("\n").filter(Boolean);
    const off = new Map<string, string[]>();
    for (const urlPath of paths) {
      const { status } = await statusOf(port, host, urlPath, agent);
      if (status !== 200) off.set(String(status), [...(off.get(String(status)) ?? []), urlPath]);
    }
    for (const [status, list] of off) {
      mismatches.push({ case: "many", detail: `${list.length} of ${paths.length} paths answer ${status} (nginx: 200), e.g. ${list[0]!}`, paths: list });
    }
    return mismatches;
  } finally {
    agent.destroy();
  }
}

/** Every file of the corpus except the precompressed .gz/.br siblings: Berth makes its own. */
function corpusFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const entry of readdirSync(path.join(dir, rel), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const child = rel === "" ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile() && !/\.(gz|br)$/.test(entry.name)) out.push(child);
    }
  };
  walk("");
  return out;
}

async function waitHealthy(proc: RunningProcess, port: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const state = await Promise.race([proc.exited, new Promise((resolve) => setTimeout(resolve, 200, "running"))]);
    if (state !== "running") throw new BenchError(`Berth exited (${String(state)}) during startup:\n${proc.output()}`);
    if (await fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.ok, () => false)) return;
    if (Date.now() > deadline) throw new BenchError(`Berth did not become healthy:\n${proc.output()}`);
  }
}

async function stopProcess(proc: RunningProcess): Promise<void> {
  if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill("SIGTERM");
  await proc.exited;
}

/** Signs up, follows the confirmation link from the outbox, signs in; returns the cookie. */
async function signIn(port: number, appUrl: string, outbox: Outbox): Promise<string> {
  const user = { email: `bench-edge-${Date.now()}@example.com`, password: "bench password 1", name: "Bench" };
  const post = (p: string, body: unknown) =>
    fetch(`http://127.0.0.1:${port}${p}`, { method: "POST", headers: { "content-type": "application/json", origin: appUrl }, body: JSON.stringify(body) });
  const signUp = await post("/api/auth/sign-up/email", user);
  if (!signUp.ok) throw new BenchError(`sign-up failed: ${signUp.status} ${await signUp.text()}`);
  const link = await waitFor(() => outbox.lastLink(user.email, /Confirm your e-mail/));
  await fetch(link, { redirect: "manual" });
  const signedIn = await post("/api/auth/sign-in/email", { email: user.email, password: user.password });
  const cookie = signedIn.headers.getSetCookie().find((c) => c.startsWith("berth.session_token="))?.split(";")[0];
  if (!signedIn.ok || !cookie) throw new BenchError(`sign-in failed: ${signedIn.status} ${await signedIn.text()}`);
  return cookie;
}

function cpuSeconds(pid: number): number | undefined {
  try {
    return cpuTimeMs(pid) / 1000;
  } catch {
    return undefined;
  }
}

/** Resolves once the server has used under 5 % of a core for 1.5 s running: its background work is done. */
async function waitIdle(proc: RunningProcess, timeoutMs = 10 * 60_000): Promise<void> {
  const pid = proc.child.pid;
  if (pid === undefined) throw new BenchError("Berth has no pid");
  const deadline = Date.now() + timeoutMs;
  let calm = 0;
  let last = cpuSeconds(pid);
  while (calm < 3) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = cpuSeconds(pid);
    if (now === undefined || last === undefined) throw new BenchError(`Berth exited while compressing:\n${proc.output()}`);
    calm = now - last < 0.025 ? calm + 1 : 0;
    last = now;
    if (Date.now() > deadline) throw new BenchError(`Berth was still busy after ${timeoutMs / 1000} s (compressing?)`);
  }
}

interface VariantState {
  /** Blobs of the live site that have not been considered for compression yet. */
  waiting: number;
  br: number;
  gzip: number;
}

/** Straight from the database (the server must be stopped: PGlite is one process's). */
async function variantState(dataDir: string): Promise<VariantState> {
  const database = await openDatabase({ pgliteDir: path.join(dataDir, "db") });
  try {
    const waiting = await blobsAwaitingCompression(database.db, { minBytes: MIN_COMPRESS_BYTES, limit: 1_000_000 });
    const counts = rowsOf<{ encoding: string; n: number | string }>(
      await database.db.execute(sql`select encoding, count(*) as n from blob_variants where variant_sha256 is not null group by encoding`),
    );
    const count = (encoding: string) => Number(counts.find((c) => c.encoding === encoding)?.n ?? 0);
    return { waiting: waiting.length, br: count("br"), gzip: count("gzip") };
  } finally {
    await database.close();
  }
}

/**
 * Confirms in the database that every compressible file has its forms; if some are missing (the
 * server went idle between batches, say), starts the server again with the worker role, whose
 * first tick resumes compression, and waits once more.
 */
async function ensureVariants(site: Prepared, env: Record<string, string>): Promise<VariantState> {
  for (let attempt = 1; ; attempt++) {
    const state = await variantState(site.dataDir);
    if (state.waiting === 0) return state;
    if (attempt > 3) throw new BenchError(`${state.waiting} files still have no compressed forms after ${attempt} tries`);
    console.log(`Compressed forms: ${state.waiting} files still waiting; running Berth with its worker to finish them`);
    const proc = runBerth({ ...env, BERTH_ROLES: "api,edge,worker" });
    try {
      await waitHealthy(proc, site.port);
      await waitIdle(proc);
    } finally {
      await stopProcess(proc);
    }
  }
}

async function prepareSite(options: Options, berthEnv: (dataDir: string, port: number) => Record<string, string>): Promise<Prepared> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "berth-bench-edge-"));
  if (!options.keepData) cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = berthEnv(dataDir, port);
  const appUrl = env.BERTH_APP_URL!;
  const proc = runBerth(env);
  cleanups.push(() => stopProcess(proc));
  try {
    await waitHealthy(proc, port);
    const cookie = await signIn(port, appUrl, new Outbox(path.join(dataDir, "outbox")));
    const headers = { origin: appUrl, cookie };

    const reserved = await fetch(`http://127.0.0.1:${port}/api/subdomains/reserve`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: "{}",
    });
    if (!reserved.ok) throw new BenchError(`reserve: ${reserved.status} ${await reserved.text()}`);
    const { subdomain } = (await reserved.json()) as { subdomain: string };

    const files = corpusFiles(options.corpus);
    const entries = files.map((name): ZipEntrySpec => ({ name, data: readFileSync(path.join(options.corpus, name)), method: "store" }));
    const zipPath = path.join(dataDir, "..", `${path.basename(dataDir)}.zip`);
    cleanups.push(() => rmSync(zipPath, { force: true }));
    await writeZip(zipPath, entries);
    const bytes = entries.reduce((sum, e) => sum + (Buffer.isBuffer(e.data) ? e.data.length : 0), 0);
    const { body, contentType } = multipartBody({ name: "Bench corpus", subdomain }, { name: "bench-site.zip", content: readFileSync(zipPath), type: "application/zip" });
    rmSync(zipPath, { force: true });

    const created = await sendTimed(port, "/api/sites", { ...headers, host: `localhost:${port}`, "content-type": contentType }, body);
    if (created.status !== 201) throw new BenchError(`create site: ${created.status} ${created.body}`);
    const site = JSON.parse(created.body) as SiteResponse;
    if (site.file_count !== files.length) throw new BenchError(`site has ${site.file_count} files, the corpus ${files.length}`);
    // The site's own host name ({subdomain}.{BERTH_SITES_DOMAIN}) on the port the harness uses.
    const host = `${new URL(site.url).hostname}:${port}`;

    // A first look before the harness's own sanity check, so a broken site fails here, clearly:
    // the home page (at its canonical URL, /) and app.js must be the corpus's bytes.
    for (const [urlPath, file] of [["/", "index.html"], ["/app.js", "app.js"]] as const) {
      const res = await getWithHost(port, host, urlPath);
      if (res.status !== 200 || res.body !== readFileSync(path.join(options.corpus, file), "utf8")) {
        throw new BenchError(`GET ${urlPath} with Host ${host}: status ${res.status}, ${res.body.length} chars, not the corpus's ${file}`);
      }
    }
    // Publishing kicked off the brotli/gzip forms in the background; let them finish while the
    // server is up, so the harness measures the site as it will be served from then on.
    const compressStarted = Date.now();
    await waitIdle(proc);
    const compressSeconds = (Date.now() - compressStarted) / 1000;
    const mismatches = await checkCasePaths(port, host, options.corpus);
    return { dataDir, port, host, subdomain: site.subdomain, files: files.length, bytes, mismatches, compressSeconds };
  } catch (error) {
    const log = proc.output().trim();
    if (error instanceof BenchError && log) error.message += `\nBerth's output (last 3,000 characters):\n${log.slice(-3000)}`;
    throw error;
  } finally {
    await stopProcess(proc);
  }
}

// ---------------------------------------------------------------------------------------------
// Berth's memory while the harness runs it: VmHWM of each server process it starts.

interface ServerRss {
  pid: number;
  hwmKb: number;
  rssKb: number;
}

function readStatus(pid: number): { rssKb: number; hwmKb: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(text)?.[1] ?? Number.NaN);
    const status = { rssKb: kb("VmRSS"), hwmKb: kb("VmHWM") };
    // An exiting process (a zombie) has no memory lines left: no reading.
    return Number.isFinite(status.rssKb) && Number.isFinite(status.hwmKb) ? status : undefined;
  } catch {
    return undefined;
  }
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
class ServerRssWatcher {
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
      const status = readStatus(this.current.pid);
      if (status) {
        this.current.hwmKb = Math.max(this.current.hwmKb, status.hwmKb);
        this.current.rssKb = status.rssKb;
        return;
      }
      this.current = undefined;
    }
    const pid = findServer(this.harnessPid, this.dataDir);
    if (pid === undefined || this.servers.some((s) => s.pid === pid)) return;
    const status = readStatus(pid);
    if (!status) return;
    this.current = { pid, hwmKb: status.hwmKb, rssKb: status.rssKb };
    this.servers.push(this.current);
  }
}

// ---------------------------------------------------------------------------------------------
// The harness.

/** The running harness, to pass a SIGTERM on (Ctrl-C reaches it anyway: same process group). */
let harness: ChildProcess | undefined;

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

function runHarness(args: readonly string[], onSpawn: (pid: number) => void): Promise<{ code: number | null; sanityProblems: string[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", [path.join(HARNESS, "vs-nginx.sh"), ...args], { cwd: root, stdio: ["ignore", "pipe", "inherit"] });
    if (child.pid !== undefined) onSpawn(child.pid);
    harness = child;
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
    child.once("exit", (code) => resolve({ code, sanityProblems }));
    // Ctrl-C reaches the harness too (same process group); it stops its servers itself.
    cleanups.push(
      () =>
        new Promise<void>((done) => {
          if (child.exitCode !== null || child.signalCode !== null) return done();
          child.once("exit", () => done());
        }),
    );
  });
}

interface HarnessRecord {
  req_per_srv_cpu_s: number;
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

/** Median of a field over clean runs (all runs when none is clean), as the harness's summary does. */
function medianOf(records: readonly HarnessRecord[], server: string, cas: string, field: "rps" | "req_per_srv_cpu_s"): number {
  const all = records.filter((r) => r.server === server && r.case === cas && r.ok);
  const clean = all.filter((r) => !r.noisy);
  const picked = clean.length > 0 ? clean : all;
  return picked.length > 0 ? median(picked.map((r) => r[field])) : Number.NaN;
}

function medianRps(records: readonly HarnessRecord[], server: string, cas: string): number {
  return medianOf(records, server, cas, "rps");
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  const options = parseArgs(process.argv.slice(2));
  if (!options) {
    console.log(USAGE);
    return 0;
  }
  await checkPreconditions(options);

  const berthEnv = (dataDir: string, port: number): Record<string, string> => ({
    BERTH_DATA_DIR: dataDir,
    PORT: String(port),
    BERTH_APP_URL: `http://localhost:${port}`,
    BERTH_LOG_LEVEL: "warn",
  });
  const started = Date.now();
  console.log(`Edge bench: ${os.cpus().length} CPUs, Node ${process.version}; corpus ${options.corpus}; harness ${HARNESS}`);
  const site = await prepareSite(options, berthEnv);
  const variants = await ensureVariants(site, berthEnv(site.dataDir, site.port));
  console.log(
    `Site ${site.subdomain}: ${site.files} files, ${(site.bytes / 1024 / 1024).toFixed(1)} MiB (no .gz/.br), data dir ${site.dataDir}, ` +
      `Host ${site.host}; compressed forms made by Berth: ${variants.br} br, ${variants.gzip} gzip (server busy ${site.compressSeconds.toFixed(1)} s after the publish); ` +
      `set up in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );

  for (const m of site.mismatches) console.log(`!! ${m.case}: Berth answers differently from nginx: ${m.detail}`);

  const out = options.out ?? path.join(os.tmpdir(), "berth-bench-edge", new Date().toISOString().replace(/[:.]/g, "-").slice(0, 19));
  mkdirSync(out, { recursive: true });
  // A private run directory for nginx's config and pid, so a concurrent harness run cannot clobber them.
  const rundir = mkdtempSync(path.join(os.tmpdir(), "berth-bench-edge-run-"));
  chmodSync(rundir, 0o755); // nginx's workers run as www-data
  cleanups.push(() => rmSync(rundir, { recursive: true, force: true }));

  const env = Object.entries({ ...berthEnv(site.dataDir, site.port), BERTH_ROLES: "edge,api" })
    .map(([k, v]) => `${k}=${shellQuote(v)}`)
    .join(" ");
  const command = `exec env ${env} ${shellQuote(process.execPath)} ${shellQuote(serverEntry)}`;
  // A smoke test should not sit for minutes waiting for a busy machine: noisy runs stay flagged in the summary.
  const quick = options.quick ? ["--runs", "1", "--duration", "5", "--retries", "1", "--quiet-wait", "20"] : [];
  const args = [command, String(site.port), site.host, "--out", out, "--rundir", rundir, "--root", options.corpus, ...quick, ...options.passThrough];
  console.log(`Harness: bash ${path.join(HARNESS, "vs-nginx.sh")} ${args.map(shellQuote).join(" ")}\n`);

  let watcher: ServerRssWatcher | undefined;
  const harnessStarted = Date.now();
  const { code, sanityProblems } = await runHarness(args, (pid) => (watcher = new ServerRssWatcher(pid, site.dataDir)));
  const servers = watcher?.stop() ?? [];
  const harnessSeconds = (Date.now() - harnessStarted) / 1000;

  const resultsFile = path.join(out, "results.json");
  if (!existsSync(resultsFile)) throw new BenchError(`The harness exited ${String(code)} without ${resultsFile}`);
  const { results } = JSON.parse(readFileSync(resultsFile, "utf8")) as { results: HarnessRecord[] };
  const cases = CASES.filter((c) => results.some((r) => r.case === c));

  // The many case again, on the paths both servers answer 200 (without the .html paths Berth
  // redirects to clean URLs): the same corpus under another root whose .paths file leaves them out.
  const redirected = new Set(site.mismatches.flatMap((m) => m.paths ?? []));
  let likeForLike: { rows: HarnessRecord[]; paths: number } | undefined;
  if (cases.includes("many") && redirected.size > 0) {
    const kept = readFileSync(`${options.corpus}.paths`, "utf8").split("\n").filter((p) => p !== "" && !redirected.has(p));
    const corpus = path.join(rundir, "corpus");
    symlinkSync(options.corpus, corpus);
    writeFileSync(`${corpus}.paths`, kept.join("\n") + "\n");
    const likeOut = path.join(out, "many-like-for-like");
    console.log(`\nThe many case again, like for like: the ${kept.length} paths that both servers answer 200.\n`);
    await runHarness([...args, "--cases", "many", "--root", corpus, "--out", likeOut], (pid) => (watcher = new ServerRssWatcher(pid, site.dataDir)));
    servers.push(...(watcher?.stop() ?? []));
    const likeFile = path.join(likeOut, "results.json");
    if (existsSync(likeFile)) likeForLike = { rows: (JSON.parse(readFileSync(likeFile, "utf8")) as { results: HarnessRecord[] }).results, paths: kept.length };
  }

  // Analytics collection costs: both servers side by side on the server core, at the same time
  // (analyticsSideBySide.ts says why), on the cases where a request costs least, so the
  // recording's share is largest.
  let analytics: SideBySideCase[] | undefined;
  const offCases = ANALYTICS_CASES.filter((c) => cases.includes(c));
  if (!options.skipAnalyticsOff && offCases.length > 0) {
    const rounds = options.quick ? 3 : 5;
    const seconds = options.quick ? 5 : 10;
    console.log(`\nAnalytics collection on and off, side by side: the ${offCases.join(" and ")} cases, ${rounds} rounds of ${seconds} s.\n`);
    analytics = await compareSideBySide({
      dataDir: site.dataDir,
      hostName: site.host.slice(0, site.host.lastIndexOf(":")),
      env: berthEnv,
      cases: offCases,
      manyScript: path.join(HARNESS, "lua/many.lua"),
      manyPaths: `${options.corpus}.paths`,
      rounds,
      seconds,
      serverCpu: "0",
      wrkCpu: "1",
      out,
    });
  }

  const rows = cases.map((c) => {
    const nginx = medianRps(results, "nginx", c);
    const ours = medianRps(results, "ours", c);
    const notes: string[] = site.mismatches.filter((m) => m.case === c).map((m) => `not like for like: ${m.detail}`);
    for (const server of ["nginx", "ours"]) {
      const runs = results.filter((r) => r.server === server && r.case === c);
      // wrk counts every status >= 400 as non-2xx, so the 404 case is all "non-2xx" by design.
      const errors = runs.reduce((sum, r) => sum + r.errors + (c === "404" ? 0 : r.non2xx), 0);
      const name = server === "ours" ? "Berth" : server;
      if (errors > 0) notes.push(`${name}: ${errors} errors/non-2xx`);
      if (runs.length > 0 && runs.every((r) => r.noisy)) notes.push(`${name}: every run noisy`);
    }
    return { c, nginx, ours, ratio: ours / nginx, notes };
  });
  if (likeForLike) {
    const nginx = medianRps(likeForLike.rows, "nginx", "many");
    const ours = medianRps(likeForLike.rows, "ours", "many");
    rows.push({ c: "many, like for like" as (typeof cases)[number], nginx, ours, ratio: ours / nginx, notes: [`the ${likeForLike.paths} paths both answer 200`] });
  }
  const fmt = (v: number) => (Number.isFinite(v) ? v.toFixed(0) : "-");
  const lines = [
    "",
    "## Berth edge vs nginx (pinned: 1 server core, wrk on the other; median req/s)",
    "",
    "| case | nginx | Berth | Berth / nginx | notes |",
    "|---|---:|---:|---:|---|",
    ...rows.map((r) => `| ${r.c} | ${fmt(r.nginx)} | ${fmt(r.ours)} | ${Number.isFinite(r.ratio) ? r.ratio.toFixed(2) : "-"} | ${r.notes.join("; ")} |`),
    "",
  ];
  if (analytics) {
    lines.push(
      "## Analytics collection on vs off (side by side on one core, at the same time; goal: on within 5 % of off)",
      "",
      "| case | on: req/s | off: req/s | on / off, req/s | on / off, req per server CPU-s | rounds (on / off, req/s) |",
      "|---|---:|---:|---:|---:|---|",
      ...analytics.map(
        (a) =>
          `| ${a.case} | ${fmt(a.onRps)} | ${fmt(a.offRps)} | ${a.rpsRatio.toFixed(3)} | ${a.perCpuRatio.toFixed(3)} | ${a.rounds.map((r) => (r.on.rps / r.off.rps).toFixed(3)).join(", ")} |`,
      ),
      "",
      "Each server has about half the core: req/s are half of a server alone. Medians over the rounds of each round's ratio.",
      "",
    );
  }
  const peak = servers.reduce((max, s) => Math.max(max, s.hwmKb), 0);
  lines.push(
    servers.length > 0
      ? `Berth peak RSS (VmHWM): ${(peak / 1024).toFixed(1)} MiB, the highest of ${servers.length} server start(s): ` +
          servers.map((s) => `pid ${s.pid} ${(s.hwmKb / 1024).toFixed(1)} MiB`).join(", ")
      : "Berth peak RSS: the server process was never seen (it may have exited at once; see ours.log)",
  );
  lines.push(`Harness: ${harnessSeconds.toFixed(0)} s; summary ${path.join(out, "summary.md")} (server logs: ${path.join(out, "ours.log")}, ${path.join(out, "nginx.log")})`);
  const noisy = results.filter((r) => r.noisy).length;
  if (noisy > results.length / 4) {
    lines.push(`!! ${noisy} of ${results.length} runs were noisy (other processes used the CPUs): the ratios are rough; run again on a quiet machine.`);
  }
  if (sanityProblems.length > 0) lines.push(`!! The harness's sanity check failed ${sanityProblems.length} time(s); those cases are not like for like:`, ...sanityProblems);
  console.log(lines.join("\n"));
  writeFileSync(path.join(out, "berth-edge.json"), JSON.stringify({ site, variants, servers, rows, harnessSeconds }, null, 1));
  const figures: Figure[] = rows.map((r) => ({
    figure: `${CASE_LABELS[r.c] ?? r.c}, req/s`,
    value: r.ours,
    unit: "req/s",
    anchors: [{ label: "nginx", value: r.nginx }],
    note: r.notes.join("; ") || undefined,
  }));
  if (analytics) {
    const off = "analytics off, side by side (BERTH_ANALYTICS=false)";
    const note = "on / off, both servers on one core at the same time, median of the rounds' ratios; goal: within 5 %";
    for (const a of analytics) {
      figures.push(
        { figure: `${a.case}: analytics on, req/s (side by side)`, value: a.onRps, unit: "req/s", anchors: [{ label: off, value: a.offRps }], note: `${note}; ratio ${a.rpsRatio.toFixed(3)}` },
        {
          figure: `${a.case}: analytics on, req per server CPU-s (side by side)`,
          value: a.onPerCpu,
          unit: "req/CPU-s",
          anchors: [{ label: off, value: a.offPerCpu }],
          note: `${note}; ratio ${a.perCpuRatio.toFixed(3)}`,
        },
      );
    }
  }
  const summaryNotes = [
    `medians of each case's rounds, the server pinned to 1 core and wrk to the other; ${noisy} of ${results.length} runs noisy; harness summary ${path.join(out, "summary.md")}`,
  ];
  if (servers.length > 0) summaryNotes.push(`Berth's peak RSS (VmHWM) ${(peak / 1024).toFixed(1)} MiB over ${servers.length} server start(s)`);
  if (sanityProblems.length > 0) summaryNotes.push(`the harness's sanity check failed ${sanityProblems.length} time(s): ${sanityProblems.join(" ")}`);
  writeSummary(options.summaryJson, { bench: "edge", quick: options.quick, figures, notes: summaryNotes });
  // A sanity failure this script found and labelled before the run (a clean-URL redirect, say) is
  // part of what Berth does; any other one means the run went wrong.
  const explained = new Set(site.mismatches.map((m) => m.case));
  const unexplained = sanityProblems.filter((line) =>
    line
      .replace(/^!! \S+ \S+ sanity: /, "")
      .split("; ")
      .some((problem) => !explained.has(problem.slice(0, problem.indexOf(":")) as CaseMismatch["case"])),
  );
  return code === 0 && unexplained.length === 0 ? 0 : 1;
}

async function cleanUp(): Promise<void> {
  for (const step of cleanups.reverse()) await Promise.resolve(step()).catch(() => undefined);
  cleanups.length = 0;
}

for (const [signal, code] of [["SIGINT", 130], ["SIGTERM", 143]] as const) {
  process.once(signal, () => {
    // The harness stops its own servers on either signal; then the data directory can go.
    if (harness && harness.exitCode === null && harness.signalCode === null) harness.kill(signal);
    void cleanUp().finally(() => process.exit(code));
  });
}

let exitCode = 1;
try {
  exitCode = await main();
} catch (error) {
  if (error instanceof BenchError) console.error(`bench:edge: ${error.message}`);
  else throw error;
} finally {
  await cleanUp();
}
process.exitCode = exitCode;
