// The edge workers' figures (BERTH_EDGE_WORKERS): Berth with N edge workers against nginx with N
// worker processes, both unpinned on every core (the harness's shared mode), next to Berth with
// one thread against nginx with one worker, pinned to one core (its pinned mode). Three goals:
// with N workers at least 0.8 of nginx-N on small, many, 404 and gzip; at least 0.9 of the
// requests per server CPU-second that one thread serves (what more cores will multiply); and a p99
// in the many case (analytics on, as by default) at most twice nginx's.
import { median } from "./support";
import { medianRps, type HarnessRecord } from "./edgeHarness";

export const WORKER_CASES = ["small", "many", "404", "gzip"] as const;

function medianOf(records: readonly HarnessRecord[], server: string, cas: string, field: "req_per_srv_cpu_s" | "p99_ms"): number {
  const all = records.filter((r) => r.server === server && r.case === cas && r.ok);
  const clean = all.filter((r) => !r.noisy);
  const picked = clean.length > 0 ? clean : all;
  return picked.length > 0 ? median(picked.map((r) => r[field])) : Number.NaN;
}

export interface WorkerRow {
  case: string;
  berthN: number;
  nginxN: number;
  /** Berth with N workers / nginx with N workers (goal ≥ 0.8). */
  ratio: number;
  /** Requests per server CPU-second: N workers (shared) and one thread (pinned). */
  perCpuN: number;
  perCpu1: number;
  /** perCpuN / perCpu1 (goal ≥ 0.9). */
  efficiency: number;
  p99Berth: number;
  p99Nginx: number;
}

export function workerRows(one: readonly HarnessRecord[], many: readonly HarnessRecord[]): WorkerRow[] {
  return WORKER_CASES.filter((c) => many.some((r) => r.case === c)).map((c) => {
    const berthN = medianRps(many, "ours", c);
    const nginxN = medianRps(many, "nginx", c);
    const perCpuN = medianOf(many, "ours", c, "req_per_srv_cpu_s");
    const perCpu1 = medianOf(one, "ours", c, "req_per_srv_cpu_s");
    return {
      case: c,
      berthN,
      nginxN,
      ratio: berthN / nginxN,
      perCpuN,
      perCpu1,
      efficiency: perCpuN / perCpu1,
      p99Berth: medianOf(many, "ours", c, "p99_ms"),
      p99Nginx: medianOf(many, "nginx", c, "p99_ms"),
    };
  });
}

const fixed = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : "n/a");
const thousands = (n: number) => (Number.isFinite(n) ? `${(n / 1000).toFixed(1)}k` : "n/a");

export function workersReport(rows: readonly WorkerRow[], workers: number): string {
  const lines = [
    `\nEdge workers: Berth with ${workers} (BERTH_EDGE_WORKERS=${workers}) vs nginx worker_processes ${workers}, unpinned; per CPU-second against Berth with 1, pinned.`,
    "| case | Berth-N req/s | nginx-N req/s | ratio (goal ≥ 0.8) | req/CPU-s N | req/CPU-s 1 | N/1 (goal ≥ 0.9) | p99 Berth ms | p99 nginx ms |",
    "|---|---|---|---|---|---|---|---|---|",
  ];
  for (const r of rows) {
    lines.push(
      `| ${r.case} | ${thousands(r.berthN)} | ${thousands(r.nginxN)} | ${fixed(r.ratio)}${r.ratio >= 0.8 ? "" : " !!"} | ${thousands(r.perCpuN)} | ${thousands(r.perCpu1)} | ${fixed(r.efficiency)}${r.efficiency >= 0.9 ? "" : " !!"} | ${fixed(r.p99Berth)} | ${fixed(r.p99Nginx)} |`,
    );
  }
  const many = rows.find((r) => r.case === "many");
  if (many) {
    const times = many.p99Berth / many.p99Nginx;
    lines.push(
      `many, analytics on: p99 ${fixed(many.p99Berth)} ms vs nginx ${fixed(many.p99Nginx)} ms = ${fixed(times)}× (goal ≤ 2×)${times <= 2 ? "" : " !!"}`,
    );
  }
  return lines.join("\n");
}
