// Every headline figure in one run on one machine: runs the four benches one after the other,
// each as its own child process through its usual entry point (so each stays runnable alone),
// collects the figures each writes with --summary-json, and prints one table of them, each beside
// the anchor measured in the same run and the ratio, with the machine's facts. The table is also
// written as Markdown, for the README and bench/README.md.
//
//   npm run bench                           # builds, then all four, full length (about 25 minutes)
//   npx tsx bench/all.ts --quick            # uses dist/ as it is; each bench's --quick (21 minutes
//                                           # on a busy machine, 17 of them the edge waiting for quiet)
//   npx tsx bench/all.ts --only edge,api    # a subset, in the usual order
//
// Options: --quick, --only LIST (edge, upload, api, nodes), --out FILE (default
// /tmp/berth-bench-all/<stamp>.md; bench/results is not ignored by git), --help.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { root } from "../e2e/support/berth";
import { ADMIN_URL } from "./postgres";
import { loadAverage } from "./support";
import type { BenchName, BenchSummary, Figure } from "./summary";

const BENCHES: readonly BenchName[] = ["edge", "upload", "api", "nodes", "deploy", "memory"];

interface Options {
  quick: boolean;
  only: BenchName[];
  out: string | undefined;
}

const USAGE = `Usage: npm run bench -- [--quick] [--only edge,upload,api,nodes] [--out FILE]
  --quick      each bench's --quick: smoke-test figures, not figures to quote
  --only LIST  run these benches only (comma-separated; always in the order edge, upload, api, nodes)
  --out FILE   where to write the Markdown (default /tmp/berth-bench-all/<stamp>.md)
  Each bench prints its own output as it runs; the table of headline figures comes at the end.`;

function parseArgs(argv: readonly string[]): Options | undefined {
  const options: Options = { quick: false, only: [...BENCHES], out: undefined };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () => {
      const next = argv[++i];
      if (next === undefined || next.startsWith("--")) throw new Error(`${arg} needs a value\n${USAGE}`);
      return next;
    };
    if (arg === "--help" || arg === "-h") return undefined;
    else if (arg === "--quick") options.quick = true;
    else if (arg === "--only") {
      const names = value()
        .split(",")
        .map((n) => n.trim())
        .filter(Boolean);
      const unknown = names.filter((n) => !(BENCHES as readonly string[]).includes(n));
      if (unknown.length > 0 || names.length === 0) throw new Error(`--only takes ${BENCHES.join(", ")}; not ${unknown.join(", ") || "nothing"}`);
      options.only = BENCHES.filter((b) => names.includes(b));
    } else if (arg === "--out") options.out = path.resolve(value());
    else throw new Error(`unknown option ${arg}\n${USAGE}`);
  }
  return options;
}

// ---------------------------------------------------------------------------------------------
// The machine, for the record: figures from another machine, commit or load are other figures.

function commandOutput(command: string, args: readonly string[]): string | undefined {
  const result = spawnSync(command, args, { cwd: root, encoding: "utf8", timeout: 5_000 });
  if (result.error) return undefined;
  return `${result.stdout}${result.stderr}`.trim();
}

function gitCommit(): string {
  const commit = commandOutput("git", ["rev-parse", "--short", "HEAD"]);
  if (!commit) return "unknown (not a git checkout?)";
  const changed = (commandOutput("git", ["status", "--porcelain"]) ?? "").split("\n").filter(Boolean).length;
  return changed === 0 ? commit : `${commit}, with uncommitted changes in ${changed} files`;
}

async function postgresVersion(): Promise<string> {
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    return `PostgreSQL ${(await client.query<{ server_version: string }>("show server_version")).rows[0]!.server_version}`;
  } catch {
    return `PostgreSQL unreachable at ${ADMIN_URL}`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function machineFacts(benches: readonly BenchName[]): Promise<string> {
  const cpus = os.cpus();
  const parts = [
    `${cpus.length} CPUs (${cpus[0]?.model.trim() ?? "unknown model"})`,
    `${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB`,
    `${os.type()} ${os.release()}`,
    `Node ${process.version}`,
  ];
  if (benches.includes("edge")) {
    parts.push(/nginx\/[\d.]+/.exec(commandOutput("nginx", ["-v"]) ?? "")?.[0].replace("/", " ") ?? "nginx not found");
    // "wrk 4.1.0 [epoll]", or "wrk debian/4.1.0-3+b2 [epoll]" from Debian's package.
    const wrk = /^wrk \S*?(\d+(?:\.\d+)+)/.exec(commandOutput("wrk", ["-v"]) ?? "");
    parts.push(wrk ? `wrk ${wrk[1]}` : "wrk not found");
  }
  if (benches.includes("api") || benches.includes("nodes")) parts.push(await postgresVersion());
  return parts.join(", ");
}

// ---------------------------------------------------------------------------------------------
// Running the benches.

interface Outcome {
  bench: BenchName;
  /** The exit code, or the signal's name. */
  exit: number | string;
  seconds: number;
  loadBefore: string;
  loadAfter: string;
  summary: BenchSummary | undefined;
  /** Why there is no summary, when there is none. */
  problem: string | undefined;
}

/** The bench running now; its PID gets the signals this process receives. */
let current: ChildProcess | undefined;
let interrupted: NodeJS.Signals | undefined;

/**
 * Each bench stops its own servers, databases and directories on SIGINT (bench/support.ts's
 * runBench). The benches run in process groups of their own, so a Ctrl-C in
 * the terminal reaches this process only, and each bench gets exactly one SIGINT, by PID, from
 * here. A second signal leaves at once, naming the bench still cleaning up.
 */
function onSignal(signal: NodeJS.Signals): void {
  const child = current;
  if (interrupted !== undefined) {
    console.error(`\nbench: leaving now${child?.pid !== undefined ? `; bench pid ${child.pid} may still be cleaning up` : ""}`);
    process.exit(signal === "SIGINT" ? 130 : 143);
  }
  interrupted = signal;
  console.error(
    `\nbench: ${signal}: stopping${child?.pid !== undefined ? ` the running bench (pid ${child.pid}), which cleans up after itself` : ""}`,
  );
  if (child?.pid !== undefined && child.exitCode === null && child.signalCode === null) process.kill(child.pid, "SIGINT");
}

function runOne(bench: BenchName, quick: boolean, summaryFile: string): Promise<Outcome> {
  const script = path.join(root, "bench", `${bench}.ts`);
  // process.execArgv holds tsx's loader (this file runs under tsx), so the child runs .ts the same way.
  const args = [...process.execArgv, script, ...(quick ? ["--quick"] : []), "--summary-json", summaryFile];
  console.log(
    `\n=== bench ${bench}: ${path.relative(root, script)} ${args.slice(process.execArgv.length + 1).join(" ")} (load average ${loadAverage()}) ===\n`,
  );
  const loadBefore = loadAverage();
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ["ignore", "inherit", "inherit"], detached: true });
    current = child;
    const finish = (exit: number | string, problem?: string) => {
      current = undefined;
      let summary: BenchSummary | undefined;
      if (existsSync(summaryFile)) {
        try {
          summary = JSON.parse(readFileSync(summaryFile, "utf8")) as BenchSummary;
        } catch (error) {
          problem ??= `its summary ${summaryFile} does not parse: ${String(error)}`;
        }
      } else problem ??= "it wrote no figures (see its output above)";
      resolve({ bench, exit, seconds: (performance.now() - started) / 1000, loadBefore, loadAfter: loadAverage(), summary, problem });
    };
    child.once("error", (error) => finish("spawn failed", String(error)));
    child.once("exit", (code, signal) => finish(code ?? signal ?? "unknown"));
  });
}

// ---------------------------------------------------------------------------------------------
// The table.

/** Three significant digits or so, whole numbers with separators. */
function num(v: number | null): string {
  if (v === null || !Number.isFinite(v)) return "-";
  const abs = Math.abs(v);
  if (abs !== 0 && abs < 0.1) return v.toLocaleString("en", { maximumSignificantDigits: 2 });
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : 2;
  return v.toLocaleString("en", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

function figureRow(bench: BenchName, f: Figure): string {
  // JSON has no NaN: a figure a bench could not compute arrives as null.
  const value = f.value as number | null;
  const anchors = f.anchors.map((a) => `${a.label}: ${num(a.value as number | null)} ${f.unit}`).join("; ");
  const ratios = f.anchors.map((a) => (value === null || a.value === null ? "-" : `${num(value / a.value)}×`)).join("; ");
  return `| ${bench} | ${cell(f.figure)} | ${num(value)} ${f.unit} | ${cell(anchors)} | ${ratios} | ${cell(f.note ?? "")} |`;
}

function report(options: Options, facts: string, startedAt: Date, loadStart: string, outcomes: Outcome[], seconds: number): string {
  const lines = [
    `## Berth's headline figures, one run (${startedAt.toISOString().slice(0, 16).replace("T", " ")} UTC${options.quick ? ", --quick" : ""})`,
    "",
    `Machine: ${facts}. Commit ${gitCommit()}. Load average (1, 5, 15 min) ${loadStart} at the start, ${loadAverage()} at the end; ` +
      `${(seconds / 60).toFixed(1)} minutes in all.` +
      (options.quick ? " **Quick run: fewer rounds and requests, a smoke test of the figures, not figures to quote.**" : ""),
    "",
    "| Bench | Figure | Berth | Anchor (same run) | Berth / anchor | Notes |",
    "| --- | --- | ---: | --- | ---: | --- |",
  ];
  for (const o of outcomes) {
    if (o.summary) lines.push(...o.summary.figures.map((f) => figureRow(o.bench, f)));
    if (!o.summary || o.exit !== 0) lines.push(`| ${o.bench} | **failed**: exit ${o.exit}${o.problem ? `; ${cell(o.problem)}` : ""} | | | | |`);
  }
  lines.push("", "Each bench:", "");
  for (const o of outcomes) {
    lines.push(`- ${o.bench}: exit ${o.exit}, ${o.seconds.toFixed(0)} s, load average ${o.loadBefore} → ${o.loadAfter}.`);
    for (const note of o.summary?.notes ?? []) lines.push(`  - ${note}`);
  }
  const skipped = BENCHES.filter((b) => !outcomes.some((o) => o.bench === b));
  const notAsked = skipped.filter((b) => !options.only.includes(b));
  const cut = skipped.filter((b) => options.only.includes(b));
  if (notAsked.length > 0) lines.push(`- Not asked for (--only): ${notAsked.join(", ")}.`);
  if (cut.length > 0) lines.push(`- Not run, interrupted by ${interrupted ?? "a signal"}: ${cut.join(", ")}.`);
  return `${lines.join("\n")}\n`;
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  let options: Options | undefined;
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`bench: ${(error as Error).message}`);
    return 2;
  }
  if (!options) {
    console.log(USAGE);
    return 0;
  }
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  const startedAt = new Date();
  const started = performance.now();
  const loadStart = loadAverage();
  const stamp = startedAt.toISOString().replace(/[:.]/g, "-").slice(0, 19);
  const out = options.out ?? path.join(os.tmpdir(), "berth-bench-all", `${stamp}.md`);
  const summaries = path.join(path.dirname(out), path.basename(out, ".md"));
  mkdirSync(summaries, { recursive: true });
  const facts = await machineFacts(options.only);
  console.log(`bench: ${options.only.join(", ")}${options.quick ? " (--quick)" : ""}; ${facts}; load average ${loadStart}; figures to ${out}`);

  const outcomes: Outcome[] = [];
  for (const bench of options.only) {
    if (interrupted) break;
    outcomes.push(await runOne(bench, options.quick, path.join(summaries, `${bench}.json`)));
  }
  const text = report(options, facts, startedAt, loadStart, outcomes, (performance.now() - started) / 1000);
  console.log(`\n${text}`);
  writeFileSync(out, text);
  writeFileSync(path.join(summaries, "all.json"), `${JSON.stringify({ startedAt, facts, loadStart, loadEnd: loadAverage(), outcomes }, null, 1)}\n`);
  console.log(`Written to ${out} (each bench's figures as JSON in ${summaries}/)`);
  if (interrupted) return interrupted === "SIGINT" ? 130 : 143;
  return outcomes.every((o) => o.exit === 0 && o.summary) ? 0 : 1;
}

process.exitCode = await main();
