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
// left out; edgeSite.ts) → the harness starts that server itself, once per round, next to nginx,
// while this script reads the server's VmHWM from /proc (edgeHarness.ts) → the many case again
// like for like, and analytics on and off side by side → the report (edgeReport.ts).
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { serverEntry } from "../e2e/support/berth";
import { SERVER_NODE_FLAGS } from "../scripts/server-flags.mjs";
import { compareSideBySide, type SideBySideCase } from "./analyticsSideBySide";
import { CASES, checkPreconditions, HARNESS, readResults, runHarness, ServerRssWatcher, shellQuote, type HarnessRecord } from "./edgeHarness";
import { caseRows, headlineSummary, printedReport, unexplainedProblems, type EdgeRun } from "./edgeReport";
import { ensureVariants, prepareSite, type BerthEnv } from "./edgeSite";
import { BenchError, cleanups, runBench } from "./support";
import { takeSummaryOption, writeSummary } from "./summary";
import { WORKER_CASES, workerRows, workersReport } from "./edgeWorkers";

/** Cases measured again with analytics collection on and off, side by side (analyticsSideBySide.ts). */
const ANALYTICS_CASES = ["small", "many"] as const;

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
  /** --workers N: Berth's edge workers (and nginx's worker processes) in the unpinned run; 0 skips it. */
  workers: number;
}

function parseArgs(allArgs: readonly string[]): Options | undefined {
  const { argv, summaryJson } = takeSummaryOption(allArgs);
  const options: Options = {
    quick: false,
    keepData: false,
    skipAnalyticsOff: false,
    passThrough: [],
    corpus: "/tmp/bench-site",
    out: undefined,
    summaryJson,
    workers: os.availableParallelism(),
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--help" || arg === "-h") return undefined;
    if (arg === "--quick") options.quick = true;
    else if (arg === "--keep-data") options.keepData = true;
    else if (arg === "--no-analytics-off") options.skipAnalyticsOff = true;
    else if (arg === "--workers") options.workers = Number(argv[++i]);
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
  --workers N   the unpinned run's Berth edge workers and nginx worker processes (default: the cores; 0 skips it)
  Any other option goes to ${path.join(HARNESS, "run-bench.mjs")}, e.g. --cases small,many --runs 5 --out DIR.
  Not for --servers/--extra-*/--host: this script sets them.`;

// ---------------------------------------------------------------------------------------------

const berthEnv: BerthEnv = (dataDir, port) => ({
  BERTH_DATA_DIR: dataDir,
  PORT: String(port),
  BERTH_APP_URL: `http://localhost:${port}`,
  BERTH_LOG_LEVEL: "warn",
});

async function main(options: Options): Promise<number> {
  await checkPreconditions(options.corpus);

  const started = Date.now();
  console.log(`Edge bench: ${os.cpus().length} CPUs, Node ${process.version}; corpus ${options.corpus}; harness ${HARNESS}`);
  const site = await prepareSite(options.corpus, options.keepData, berthEnv);
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

  // The pinned run compares one core with one core: Berth on its main thread, nginx with one worker.
  const commandWith = (workers: number) => {
    const env = Object.entries({ ...berthEnv(site.dataDir, site.port), BERTH_ROLES: "edge,api", BERTH_EDGE_WORKERS: String(workers) })
      .map(([k, v]) => `${k}=${shellQuote(v)}`)
      .join(" ");
    return `exec env ${env} ${[process.execPath, ...SERVER_NODE_FLAGS, serverEntry].map(shellQuote).join(" ")}`;
  };
  const command = commandWith(1);
  // A smoke test should not sit for minutes waiting for a busy machine: noisy runs stay flagged in the summary.
  const quick = options.quick ? ["--runs", "1", "--duration", "5", "--retries", "1", "--quiet-wait", "20"] : [];
  const args = [command, String(site.port), site.host, "--out", out, "--rundir", rundir, "--root", options.corpus, ...quick, ...options.passThrough];
  console.log(`Harness: bash ${path.join(HARNESS, "vs-nginx.sh")} ${args.map(shellQuote).join(" ")}\n`);

  let watcher: ServerRssWatcher | undefined;
  const harnessStarted = Date.now();
  const { code, sanityProblems } = await runHarness(args, (pid) => (watcher = new ServerRssWatcher(pid, site.dataDir)));
  const servers = watcher?.stop() ?? [];
  const harnessSeconds = (Date.now() - harnessStarted) / 1000;

  const results = readResults(out);
  if (!results) throw new BenchError(`The harness exited ${String(code)} without ${path.join(out, "results.json")}`);
  const cases = CASES.filter((c) => results.some((r) => r.case === c));

  // The many case again, on the paths both servers answer 200 (without the .html paths Berth
  // redirects to clean URLs): the same corpus under another root whose .paths file leaves them out.
  const redirected = new Set(site.mismatches.flatMap((m) => m.paths ?? []));
  let likeForLike: { rows: HarnessRecord[]; paths: number } | undefined;
  if (cases.includes("many") && redirected.size > 0) {
    const kept = readFileSync(`${options.corpus}.paths`, "utf8")
      .split("\n")
      .filter((p) => p !== "" && !redirected.has(p));
    const corpus = path.join(rundir, "corpus");
    symlinkSync(options.corpus, corpus);
    writeFileSync(`${corpus}.paths`, kept.join("\n") + "\n");
    const likeOut = path.join(out, "many-like-for-like");
    console.log(`\nThe many case again, like for like: the ${kept.length} paths that both servers answer 200.\n`);
    await runHarness([...args, "--cases", "many", "--root", corpus, "--out", likeOut], (pid) => (watcher = new ServerRssWatcher(pid, site.dataDir)));
    servers.push(...(watcher?.stop() ?? []));
    const rows = readResults(likeOut);
    if (rows) likeForLike = { rows, paths: kept.length };
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

  // Every core: Berth with N edge workers against nginx with N worker processes, unpinned (the
  // harness's shared mode: nginx `worker_processes auto`, wrk with two threads on the same cores).
  let workersText = "";
  if (options.workers >= 2) {
    const workersOut = path.join(out, "workers");
    const workerArgs = [commandWith(options.workers), ...args.slice(1), "--modes", "shared", "--cases", WORKER_CASES.join(","), "--out", workersOut];
    console.log(`\nEdge workers: BERTH_EDGE_WORKERS=${options.workers} against nginx on every core, unpinned.\n`);
    await runHarness(workerArgs, (pid) => (watcher = new ServerRssWatcher(pid, site.dataDir)));
    servers.push(...(watcher?.stop() ?? []));
    const many = readResults(workersOut);
    if (many) workersText = workersReport(workerRows(results, many), options.workers);
  }

  const run: EdgeRun = {
    quick: options.quick,
    cases,
    results,
    likeForLike,
    mismatches: site.mismatches,
    analytics,
    servers,
    harnessSeconds,
    sanityProblems,
    out,
  };
  const rows = caseRows(run);
  console.log(printedReport(run, rows));
  if (workersText) console.log(workersText);
  writeFileSync(path.join(out, "berth-edge.json"), JSON.stringify({ site, variants, servers, rows, harnessSeconds }, null, 1));
  writeSummary(options.summaryJson, headlineSummary(run, rows));
  return code === 0 && unexplainedProblems(run).length === 0 ? 0 : 1;
}

await runBench("edge", () => parseArgs(process.argv.slice(2)), USAGE, main);
