// API bench: the latency of the dashboard's calls on a large installation (10,000 sites, about a
// million file rows, on PostgreSQL), next to two anchors measured in the same run: GET /api/health
// (the same process, HTTP stack and pool, one `select 1`, no session) and a raw `select 1` through
// pg from this process. Prints p50/p95/p99 per call, sequential and with 8 requests in flight,
// and the ratios to the anchors.
//
//   npm run bench:api                     # builds, then runs (about 6 minutes)
//   npx tsx bench/api.ts --quick          # uses dist/ as it is; 50 requests per call and mode
//   npx tsx bench/api.ts --explain        # also EXPLAIN ANALYZE of every query behind the calls
//
// Options: --requests N (per call and mode, default 200), --concurrency N (default 8), --quick
// (= --requests 50), --explain, --keep-db (keep the database and print its URL), --help.
import http from "node:http";
import os from "node:os";
import pg from "pg";
import type { AnalyticsResponse } from "../common/analytics";
import type { DeploymentListResponse, SiteFileListResponse, SiteListResponse, SiteResponse, StatsResponse } from "../common/sites";
import { startBerth, type Berth } from "../e2e/support/berth";
import { signUpAndIn } from "./account";
import { DEFAULT_SHAPE, MEASURED_FOLDER, populate } from "./apiData";
import { explainDashboardQueries } from "./apiExplain";
import { createBenchDatabase } from "./postgres";
import { cleanups, loadAverage, runBench, spread, timedGet, times, type Spread } from "./support";
import { parseBenchArgs, writeSummary, type Figure } from "./summary";

/** Every call's requests are made in this many rounds, all calls taking turns, so noise is shared. */
const ROUNDS = 5;
const WARM_UP = 20;
/** The issue's line for a dashboard call; above it the bench points at EXPLAIN. */
const SLOW_P95_MS = 50;

interface Options {
  requests: number;
  concurrency: number;
  explain: boolean;
  keepDb: boolean;
  quick: boolean;
  summaryJson: string | undefined;
}

const USAGE = `Usage: npm run bench:api -- [--quick] [--requests N] [--concurrency N] [--explain] [--keep-db]
  --requests N     requests per call, sequential and again concurrent (default 200; --quick: 50)
  --concurrency N  requests in flight in the concurrent pass (default 8)
  --explain        EXPLAIN ANALYZE (auto_explain) of every query behind the measured calls
  --keep-db        keep the database afterwards and print its URL
  --summary-json FILE  also write the headline figures (p95 per call against the anchors) there as JSON
  PostgreSQL: BERTH_BENCH_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres).`;

function parseArgs(allArgs: readonly string[]): Options | undefined {
  return parseBenchArgs<Options>(
    allArgs,
    USAGE,
    (summaryJson) => ({ requests: 200, concurrency: 8, explain: false, keepDb: false, quick: false, summaryJson }),
    (options, arg, number) => {
      if (arg === "--quick") Object.assign(options, { requests: 50, quick: true });
      else if (arg === "--requests") options.requests = number();
      else if (arg === "--concurrency") options.concurrency = number();
      else if (arg === "--explain") options.explain = true;
      else if (arg === "--keep-db") options.keepDb = true;
      else return false;
      return true;
    },
  );
}

/** Something measured: one request (or query) by worker `worker`, resolving to its ms. */
interface Target {
  label: string;
  anchor: boolean;
  once(worker: number): Promise<number>;
  /** Checked once before measuring: the call answers what a dashboard on this data would show. */
  check?(body: string): string | undefined;
  /** For API calls: the path, and the size of the answer's body. */
  path?: string;
  bytes?: number;
}

function apiTarget(berth: Berth, agent: http.Agent, headers: http.OutgoingHttpHeaders, label: string, path: string, check?: Target["check"]): Target {
  return {
    label,
    anchor: check === undefined,
    check,
    path,
    async once() {
      const res = await timedGet(agent, berth.port, path, headers);
      if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${res.body.slice(0, 200)}`);
      return res.ms;
    },
  };
}

/** Each target `perTarget` times with `concurrency` in flight, in ROUNDS rounds where all take turns. */
async function measure(targets: Target[], perTarget: number, concurrency: number): Promise<Map<string, number[]>> {
  const samples = new Map(targets.map((t) => [t.label, [] as number[]]));
  for (let round = 0; round < ROUNDS; round++) {
    const count = Math.floor(perTarget / ROUNDS) + (round < perTarget % ROUNDS ? 1 : 0);
    for (const target of targets) {
      let next = 0;
      const worker = async (id: number) => {
        while (next < count) {
          next += 1;
          samples.get(target.label)!.push(await target.once(id));
        }
      };
      await Promise.all(Array.from({ length: concurrency }, (_, id) => worker(id)));
    }
  }
  return samples;
}

const fmt = (ms: number) => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));

function table(title: string, targets: Target[], results: Map<string, Spread>): string {
  const health = results.get("GET /api/health")!;
  const select = results.get("select 1 (pg, this process)")!;
  const lines = [
    `### ${title}`,
    "",
    "| Call | p50 ms | p95 ms | p99 ms | max ms | p50 / health | p95 / health | p95 / select 1 | body |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  ];
  for (const t of targets) {
    const r = results.get(t.label)!;
    const slow = !t.anchor && r.p95 > SLOW_P95_MS ? " ⚠" : "";
    lines.push(
      `| ${t.anchor ? `anchor: ${t.label}` : t.label}${slow} | ${fmt(r.p50)} | ${fmt(r.p95)} | ${fmt(r.p99)} | ${fmt(r.max)} | ` +
        `${times(r.p50, health.p50, 1)} | ${times(r.p95, health.p95, 1)} | ${times(r.p95, select.p95, 1)} | ${t.bytes === undefined ? "" : `${(t.bytes / 1024).toFixed(1)} KiB`} |`,
    );
  }
  return lines.join("\n");
}

/** For bench/all.ts: each call's p95 against both anchors' p95 in the same pass. */
function headlineFigures(targets: Target[], results: Map<string, Spread>, pass: string): Figure[] {
  const anchors = targets.filter((t) => t.anchor).map((t) => ({ label: `${t.label} p95`, value: results.get(t.label)!.p95 }));
  return targets
    .filter((t) => !t.anchor)
    .map((t) => ({
      figure: `${t.label} p95, ${pass}`,
      value: results.get(t.label)!.p95,
      unit: "ms",
      anchors,
      note: results.get(t.label)!.p95 > SLOW_P95_MS ? `p95 above ${SLOW_P95_MS} ms` : undefined,
    }));
}

async function main(options: Options): Promise<void> {
  const started = performance.now();
  console.log(`API bench: ${os.cpus().length} cores, Node ${process.version}; load average ${loadAverage()}`);
  const db = await createBenchDatabase("berth_bench_api");
  if (options.keepDb) console.log(`database (kept): ${db.url}`);
  else cleanups.push(() => db.drop());
  const berth = await startBerth({ DATABASE_URL: db.url, BERTH_LOG_LEVEL: "warn" });
  cleanups.push(() => berth.stop());
  const user = await signUpAndIn(berth, "api");

  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  cleanups.push(() => client.end());
  const { rows } = await client.query<{ id: string }>("select id from users where email = $1", [user.email]);
  const userId = rows[0]!.id;
  const shape = DEFAULT_SHAPE;
  console.log(
    `Populating: ${shape.users} users, ${shape.sites} sites; the measured user has ${shape.heavySites} sites of ${shape.heavyFiles + 1} files ` +
      `(${shape.heavyVersions} deployments each), the others ${shape.otherFiles + 1} files and ${shape.otherVersions} deployment per site`,
  );
  const filled = await populate(client, userId, berth.port, shape, (step, ms) => console.log(`  ${step}: ${(ms / 1000).toFixed(1)} s`));
  console.log(
    `  rows: ${Object.entries(filled.counts)
      .map(([table, n]) => `${table} ${n.toLocaleString("en")}`)
      .join(", ")}`,
  );
  const fillMs = filled.steps.reduce((sum, s) => sum + s.ms, 0);

  // The measured site: the user's newest, as the dashboard lists it first.
  const site = (await client.query<{ id: string }>("select id from sites where user_id = $1 order by created_at desc limit 1", [userId])).rows[0]!.id;
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.concurrency });
  cleanups.push(() => agent.destroy());
  const pgClients = [client];
  for (let i = 1; i < options.concurrency; i++) {
    const extra = new pg.Client({ connectionString: db.url });
    await extra.connect();
    cleanups.push(() => extra.end());
    pgClients.push(extra);
  }
  const json = <T>(body: string) => JSON.parse(body) as T;
  // A call without a check is the anchor (GET /api/health).
  const api = (label: string, path: string, check?: Target["check"]) => apiTarget(berth, agent, user.headers, label, path, check);
  const targets: Target[] = [
    api("GET /api/health", "/api/health"),
    {
      label: "select 1 (pg, this process)",
      anchor: true,
      async once(worker) {
        const t0 = performance.now();
        await pgClients[worker]!.query("select 1");
        return performance.now() - t0;
      },
    },
    api("GET /api/stats", "/api/stats", (body) => {
      const stats = json<StatsResponse>(body);
      return stats.total_sites === shape.heavySites && stats.deployments === shape.heavySites * shape.heavyVersions ? undefined : body.slice(0, 200);
    }),
    api("GET /api/sites", "/api/sites", (body) => {
      const list = json<SiteListResponse>(body);
      return list.sites.length === shape.heavySites && list.sites[0]!.id === site ? undefined : `${list.sites.length} sites`;
    }),
    api("GET /api/sites/:id", `/api/sites/${site}`, (body) =>
      json<SiteResponse>(body).file_count === shape.heavyFiles + 1 ? undefined : body.slice(0, 200),
    ),
    api(`GET /api/sites/:id/files?parent=${MEASURED_FOLDER}`, `/api/sites/${site}/files?parent=${MEASURED_FOLDER}`, (body) => {
      const n = json<SiteFileListResponse>(body).files.length;
      return n === shape.heavyFiles ? undefined : `${n} files`;
    }),
    api("GET /api/sites/:id/deployments", `/api/sites/${site}/deployments`, (body) => {
      const n = json<DeploymentListResponse>(body).deployments.length;
      return n === shape.heavyVersions ? undefined : `${n} deployments`;
    }),
    api("GET /api/sites/:id/analytics?range=30d", `/api/sites/${site}/analytics?range=30d`, (body) => {
      const report = json<AnalyticsResponse>(body);
      return report.has_data && report.series.length === 30 && report.totals.views > 0 && report.top_pages.length === 10
        ? undefined
        : body.slice(0, 200);
    }),
  ];

  // Every call once: it answers what the data says, and how large its body is.
  for (const t of targets.filter((t) => t.path !== undefined)) {
    const res = await timedGet(agent, berth.port, t.path!, user.headers);
    const problem = res.status !== 200 ? `status ${res.status}` : t.check?.(res.body);
    if (problem) throw new Error(`${t.label} does not answer as expected: ${problem}`);
    t.bytes = Buffer.byteLength(res.body);
  }

  console.log(`Warm-up: ${WARM_UP} requests per call`);
  await measure(targets, WARM_UP, 1);
  const output: string[] = [];
  const figures: Figure[] = [];
  for (const concurrency of [1, options.concurrency]) {
    const t0 = performance.now();
    const samples = await measure(targets, options.requests, concurrency);
    const results = new Map([...samples].map(([label, values]) => [label, spread(values)]));
    const title =
      concurrency === 1 ? `Sequential: ${options.requests} requests per call` : `${concurrency} in flight: ${options.requests} requests per call`;
    console.log(`${title}: ${((performance.now() - t0) / 1000).toFixed(1)} s; load average ${loadAverage()}`);
    output.push(table(title, targets, results));
    figures.push(...headlineFigures(targets, results, concurrency === 1 ? "one at a time" : `${concurrency} in flight`));
  }
  console.log(`\n${output.join("\n\n")}\n`);
  console.log(
    `Populating took ${(fillMs / 1000).toFixed(0)} s; the whole bench ${((performance.now() - started) / 1000).toFixed(0)} s. ` +
      `⚠: p95 above ${SLOW_P95_MS} ms. Load average at the end: ${loadAverage()}`,
  );

  const rowCount = (name: string) => (filled.counts[name] ?? Number.NaN).toLocaleString("en");
  writeSummary(options.summaryJson, {
    bench: "api",
    quick: options.quick,
    figures,
    notes: [
      `database of ${rowCount("users")} users, ${rowCount("sites")} sites, ${rowCount("site_files")} site_files and ` +
        `${rowCount("deployment_files")} deployment_files rows (PostgreSQL); ${options.requests} requests per call and pass; ` +
        `the measured user has ${shape.heavySites} sites of ${(shape.heavyFiles + 1).toLocaleString("en")} files`,
    ],
  });

  if (options.explain) console.log(await explainDashboardQueries(db.url, userId, site, MEASURED_FOLDER));
}

await runBench("api", () => parseArgs(process.argv.slice(2)), USAGE, main);
