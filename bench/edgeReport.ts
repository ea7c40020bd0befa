// What the edge bench prints and hands to bench/all.ts: req/s per case beside nginx's with notes
// (cases not like for like, errors, noisy runs), the analytics side-by-side table, Berth's peak
// memory, and the same figures in the shape of bench/summary.ts.
import path from "node:path";
import type { SideBySideCase } from "./analyticsSideBySide";
import { medianRps, type HarnessRecord, type ServerRss } from "./edgeHarness";
import type { CaseMismatch } from "./edgeSite";
import type { BenchSummary, Figure } from "./summary";

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

export interface CaseRow {
  c: string;
  nginx: number;
  ours: number;
  ratio: number;
  notes: string[];
}

/** Everything the edge bench measured, for its report. */
export interface EdgeRun {
  quick: boolean;
  cases: readonly string[];
  /** The main pass's runs, and the many case again on the paths both servers answer 200. */
  results: readonly HarnessRecord[];
  likeForLike: { rows: HarnessRecord[]; paths: number } | undefined;
  mismatches: readonly CaseMismatch[];
  analytics: SideBySideCase[] | undefined;
  servers: readonly ServerRss[];
  harnessSeconds: number;
  sanityProblems: readonly string[];
  /** The harness's --out directory. */
  out: string;
}

export function caseRows(run: EdgeRun): CaseRow[] {
  const rows = run.cases.map((c) => {
    const nginx = medianRps(run.results, "nginx", c);
    const ours = medianRps(run.results, "ours", c);
    const notes: string[] = run.mismatches.filter((m) => m.case === c).map((m) => `not like for like: ${m.detail}`);
    for (const server of ["nginx", "ours"]) {
      const runs = run.results.filter((r) => r.server === server && r.case === c);
      // wrk counts every status >= 400 as non-2xx, so the 404 case is all "non-2xx" by design.
      const errors = runs.reduce((sum, r) => sum + r.errors + (c === "404" ? 0 : r.non2xx), 0);
      const name = server === "ours" ? "Berth" : server;
      if (errors > 0) notes.push(`${name}: ${errors} errors/non-2xx`);
      if (runs.length > 0 && runs.every((r) => r.noisy)) notes.push(`${name}: every run noisy`);
    }
    return { c, nginx, ours, ratio: ours / nginx, notes };
  });
  if (run.likeForLike) {
    const nginx = medianRps(run.likeForLike.rows, "nginx", "many");
    const ours = medianRps(run.likeForLike.rows, "ours", "many");
    rows.push({ c: "many, like for like", nginx, ours, ratio: ours / nginx, notes: [`the ${run.likeForLike.paths} paths both answer 200`] });
  }
  return rows;
}

const fmt = (v: number) => (Number.isFinite(v) ? v.toFixed(0) : "-");
const peakKb = (servers: readonly ServerRss[]) => servers.reduce((max, s) => Math.max(max, s.hwmKb), 0);
const noisyRuns = (run: EdgeRun) => run.results.filter((r) => r.noisy).length;

/** The tables and lines printed after the harness's own output. */
export function printedReport(run: EdgeRun, rows: readonly CaseRow[]): string {
  const lines = [
    "",
    "## Berth edge vs nginx (pinned: 1 server core, wrk on the other; median req/s)",
    "",
    "| case | nginx | Berth | Berth / nginx | notes |",
    "|---|---:|---:|---:|---|",
    ...rows.map(
      (r) => `| ${r.c} | ${fmt(r.nginx)} | ${fmt(r.ours)} | ${Number.isFinite(r.ratio) ? r.ratio.toFixed(2) : "-"} | ${r.notes.join("; ")} |`,
    ),
    "",
  ];
  if (run.analytics) {
    lines.push(
      "## Analytics collection on vs off (side by side on one core, at the same time; goal: on within 5 % of off)",
      "",
      "| case | on: req/s | off: req/s | on / off, req/s | on / off, req per server CPU-s | rounds (on / off, req/s) |",
      "|---|---:|---:|---:|---:|---|",
      ...run.analytics.map(
        (a) =>
          `| ${a.case} | ${fmt(a.onRps)} | ${fmt(a.offRps)} | ${a.rpsRatio.toFixed(3)} | ${a.perCpuRatio.toFixed(3)} | ${a.rounds.map((r) => (r.on.rps / r.off.rps).toFixed(3)).join(", ")} |`,
      ),
      "",
      "Each server has about half the core: req/s are half of a server alone. Medians over the rounds of each round's ratio.",
      "",
    );
  }
  const { servers } = run;
  lines.push(
    servers.length > 0
      ? `Berth peak RSS (VmHWM): ${(peakKb(servers) / 1024).toFixed(1)} MiB, the highest of ${servers.length} server start(s): ` +
          servers.map((s) => `pid ${s.pid} ${(s.hwmKb / 1024).toFixed(1)} MiB`).join(", ")
      : "Berth peak RSS: the server process was never seen (it may have exited at once; see ours.log)",
  );
  lines.push(
    `Harness: ${run.harnessSeconds.toFixed(0)} s; summary ${path.join(run.out, "summary.md")} (server logs: ${path.join(run.out, "ours.log")}, ${path.join(run.out, "nginx.log")})`,
  );
  const noisy = noisyRuns(run);
  if (noisy > run.results.length / 4) {
    lines.push(
      `!! ${noisy} of ${run.results.length} runs were noisy (other processes used the CPUs): the ratios are rough; run again on a quiet machine.`,
    );
  }
  if (run.sanityProblems.length > 0)
    lines.push(
      `!! The harness's sanity check failed ${run.sanityProblems.length} time(s); those cases are not like for like:`,
      ...run.sanityProblems,
    );
  return lines.join("\n");
}

/** The headline figures for bench/all.ts: each case against nginx, and analytics on against off. */
export function headlineSummary(run: EdgeRun, rows: readonly CaseRow[]): BenchSummary {
  const figures: Figure[] = rows.map((r) => ({
    figure: `${CASE_LABELS[r.c] ?? r.c}, req/s`,
    value: r.ours,
    unit: "req/s",
    anchors: [{ label: "nginx", value: r.nginx }],
    note: r.notes.join("; ") || undefined,
  }));
  const off = "analytics off, side by side (BERTH_ANALYTICS=false)";
  const note = "on / off, both servers on one core at the same time, median of the rounds' ratios; goal: within 5 %";
  for (const a of run.analytics ?? []) {
    figures.push(
      {
        figure: `${a.case}: analytics on, req/s (side by side)`,
        value: a.onRps,
        unit: "req/s",
        anchors: [{ label: off, value: a.offRps }],
        note: `${note}; ratio ${a.rpsRatio.toFixed(3)}`,
      },
      {
        figure: `${a.case}: analytics on, req per server CPU-s (side by side)`,
        value: a.onPerCpu,
        unit: "req/CPU-s",
        anchors: [{ label: off, value: a.offPerCpu }],
        note: `${note}; ratio ${a.perCpuRatio.toFixed(3)}`,
      },
    );
  }
  const notes = [
    `medians of each case's rounds, the server pinned to 1 core and wrk to the other; ${noisyRuns(run)} of ${run.results.length} runs noisy; harness summary ${path.join(run.out, "summary.md")}`,
  ];
  if (run.servers.length > 0)
    notes.push(`Berth's peak RSS (VmHWM) ${(peakKb(run.servers) / 1024).toFixed(1)} MiB over ${run.servers.length} server start(s)`);
  if (run.sanityProblems.length > 0)
    notes.push(`the harness's sanity check failed ${run.sanityProblems.length} time(s): ${run.sanityProblems.join(" ")}`);
  return { bench: "edge", quick: run.quick, figures, notes };
}

/**
 * The sanity problems the bench did not find and label before the run. One it did (a clean-URL
 * redirect, say) is part of what Berth does; any other one means the run went wrong.
 */
export function unexplainedProblems(run: EdgeRun): string[] {
  const explained = new Set<string>(run.mismatches.map((m) => m.case));
  return run.sanityProblems.filter((line) =>
    line
      .replace(/^!! \S+ \S+ sanity: /, "")
      .split("; ")
      .some((problem) => !explained.has(problem.slice(0, problem.indexOf(":")))),
  );
}
