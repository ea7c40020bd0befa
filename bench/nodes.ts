// Two-node bench: two Berth processes on one PostgreSQL database and one S3 bucket (s3rver), as in
// e2e/two-nodes.e2e.test.ts. How long after node A's API has answered a deploy does node B serve
// the new page? Anchors in the same run: a raw NOTIFY → LISTEN between two pg clients of this
// process (the channel the nodes use), and A→A, node A's own edge serving the new page.
//
//   npm run bench:nodes                  # builds, then runs (about 2 minutes)
//   npx tsx bench/nodes.ts --quick       # uses dist/ as it is; 10 deploys per node
//
// Options: --deploys N (per way of watching, default 30), --poll-ms N (default 2), --quick, --help.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { CreateBucketCommand, S3Client } from "@aws-sdk/client-s3";
import pg from "pg";
import S3rver from "s3rver";
import type { SiteResponse, UploadResponse } from "../common/sites";
import { startBerth, type Berth } from "../e2e/support/berth";
import type { UploadPart } from "../server/test/sites";
import { createSite, multipart, signUpAndIn, type BenchUser } from "./account";
import { createBenchDatabase } from "./postgres";
import { cleanups, loadAverage, pidOf, runBench, sendTimed, spread, timedGet, times, waitForQuiet, type Spread } from "./support";
import { parseBenchArgs, writeSummary, type Figure } from "./summary";

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = "true";
const BUCKET = "berth-bench-nodes";
/** Polls give up after this long: a deploy B never serves is a failure, not a figure. */
const GIVE_UP_MS = 10_000;
/** About the size of a relayed deployment event, so the anchor carries a comparable payload. */
const ANCHOR_PAYLOAD_BYTES = 600;

interface Options {
  deploys: number;
  pollMs: number;
  quick: boolean;
  summaryJson: string | undefined;
}

const USAGE = `Usage: npm run bench:nodes -- [--quick] [--deploys N] [--poll-ms N]
  --deploys N   deploys per way of watching: B and A polled from A's answer, B from the upload's
                last byte (in turns; default 30; --quick: 10)
  --poll-ms N   time between the starts of two polls of the node (default 2)
  --summary-json FILE  also write the headline figures (A → B against its anchors) there as JSON
  PostgreSQL: BERTH_BENCH_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres).`;

function parseArgs(allArgs: readonly string[]): Options | undefined {
  return parseBenchArgs<Options>(
    allArgs,
    USAGE,
    (summaryJson) => ({ deploys: 30, pollMs: 2, quick: false, summaryJson }),
    (options, arg, number) => {
      if (arg === "--quick") Object.assign(options, { deploys: 10, quick: true });
      else if (arg === "--deploys") options.deploys = number();
      else if (arg === "--poll-ms") options.pollMs = number();
      else return false;
      return true;
    },
  );
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The raw channel: NOTIFY on one connection until LISTEN on another hears it, `count` times. */
async function notifyRoundTrips(url: string, count: number): Promise<number[]> {
  const listener = new pg.Client({ connectionString: url });
  const notifier = new pg.Client({ connectionString: url });
  await Promise.all([listener.connect(), notifier.connect()]);
  try {
    await listener.query("listen bench_anchor");
    const filler = "x".repeat(ANCHOR_PAYLOAD_BYTES);
    const samples: number[] = [];
    for (let i = 0; i <= count; i++) {
      const payload = JSON.stringify({ i, filler });
      const heard = new Promise<number>((resolve) => {
        const on = (message: pg.Notification) => {
          if (message.payload !== payload) return;
          listener.off("notification", on);
          resolve(performance.now());
        };
        listener.on("notification", on);
      });
      const started = performance.now();
      await notifier.query("select pg_notify('bench_anchor', $1)", [payload]);
      const at = await heard;
      if (i > 0) samples.push(at - started); // the first is a warm-up
      await sleep(20);
    }
    return samples;
  } finally {
    await Promise.all([listener.end(), notifier.end()]);
  }
}

/** Polls `node` for `host` one request at a time, a poll starting every `pollMs`, until `marker` shows. */
async function pollUntil(
  node: Berth,
  agent: http.Agent,
  host: string,
  marker: string,
  pollMs: number,
): Promise<{ at: number; sentAt: number; polls: number }> {
  const started = performance.now();
  for (let polls = 1; ; polls++) {
    const pollStarted = performance.now();
    const res = await timedGet(agent, node.port, "/", { host });
    if (res.status === 200 && res.body.includes(marker)) return { at: res.at, sentAt: pollStarted, polls };
    if (res.at - started > GIVE_UP_MS) throw new Error(`node on port ${node.port} still answers ${res.status} ${res.body.slice(0, 80)}`);
    const wait = pollStarted + pollMs - performance.now();
    if (wait > 0) await sleep(wait);
  }
}

interface Cluster {
  a: Berth;
  b: Berth;
  user: BenchUser;
  site: SiteResponse;
  /** The site's host on each node (the same name, each node's port). */
  hostOn(node: Berth): string;
}

/** The deploy's index.html, with its marker. */
function page(marker: string): UploadPart {
  return { name: "index.html", content: `<!doctype html><title>bench</title><p>${marker}</p>\n`, type: "text/html" };
}

/**
 * How a deploy is watched: B or A polled from the moment A's API answered (the measure and its
 * anchor), or B polled from the moment the upload's last byte left, which shows whether B serves
 * the new page before A has even answered.
 */
type Watch = "B" | "A" | "B early";
const WATCHES: readonly Watch[] = ["B", "A", "B early"];

/** Times in ms; `ms` and `sentAfter` are relative to A's answer (negative: before it). */
interface WatchResult {
  /** The answer with the new page arrived. */
  ms: number;
  /** The poll that got it was sent. */
  sentAfter: number;
  polls: number;
  /** A's API: deploy request → response. */
  apiMs: number;
  /** The same GET once more, from the node's caches. */
  warmMs: number;
}

/** One deploy through A, watched as `watch` says. */
async function deployAndWatch(cluster: Cluster, watch: Watch, marker: string, previous: string, pollMs: number): Promise<WatchResult> {
  const { a, b, user, site } = cluster;
  const polled = watch === "A" ? a : b;
  await Promise.all([waitForQuiet(pidOf(a)), waitForQuiet(pidOf(b))]);
  // Both nodes hold the previous version in their caches, so B can only be right through an event.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    for (const node of [a, b]) {
      const res = await timedGet(agent, node.port, "/", { host: cluster.hostOn(node) });
      if (!res.body.includes(previous))
        throw new Error(`node on port ${node.port} does not serve the previous version: ${res.status} ${res.body.slice(0, 80)}`);
    }
    const { body, headers } = multipart({}, page(marker));
    let early: ReturnType<typeof pollUntil> | undefined;
    const deploy = await sendTimed(a.port, `/api/sites/${site.id}/files`, { ...user.headers, ...headers }, body, () => {
      if (watch !== "B early") return;
      early = pollUntil(polled, agent, cluster.hostOn(polled), marker, pollMs);
      // Awaited below; until then a failure must not count as unhandled and end the process.
      early.catch(() => undefined);
    });
    if (deploy.status !== 201) throw new Error(`deploy: ${deploy.status} ${deploy.body}`);
    if ((JSON.parse(deploy.body) as UploadResponse).deployment.status !== "success") throw new Error(`deploy did not go live: ${deploy.body}`);
    const seen = await (early ?? pollUntil(polled, agent, cluster.hostOn(polled), marker, pollMs));
    // The same request again, now answered from the node's caches: what a poll costs when warm.
    const again = await timedGet(agent, polled.port, "/", { host: cluster.hostOn(polled) });
    return {
      ms: seen.at - deploy.respondedAt,
      sentAfter: seen.sentAt - deploy.respondedAt,
      polls: seen.polls,
      apiMs: deploy.respondedAt - deploy.startedAt,
      warmMs: again.ms,
    };
  } finally {
    agent.destroy();
  }
}

async function main(options: Options): Promise<void> {
  const started = performance.now();
  console.log(`Nodes bench: ${os.cpus().length} cores, Node ${process.version}; load average ${loadAverage()}`);
  const db = await createBenchDatabase("berth_bench_nodes");
  cleanups.push(() => db.drop());
  const s3Dir = mkdtempSync(path.join(os.tmpdir(), "berth-bench-nodes-s3-"));
  cleanups.push(() => rmSync(s3Dir, { recursive: true, force: true }));
  const s3 = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory: s3Dir });
  const { port: s3Port } = await s3.run();
  cleanups.push(() => s3.close());
  const s3Client = new S3Client({
    endpoint: `http://127.0.0.1:${s3Port}`,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
  });
  await s3Client.send(new CreateBucketCommand({ Bucket: BUCKET }));
  s3Client.destroy();
  const shared = {
    DATABASE_URL: db.url,
    BERTH_S3_BUCKET: BUCKET,
    BERTH_S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
    AWS_ACCESS_KEY_ID: "S3RVER",
    AWS_SECRET_ACCESS_KEY: "S3RVER",
    // One secret for the cluster: sessions and signed links work on every node.
    BERTH_SECRET: `bench-nodes-secret-${randomBytes(16).toString("hex")}`,
    BERTH_LOG_LEVEL: "warn",
  };
  // A first, so it runs the migrations alone; then B.
  const a = await startBerth(shared);
  cleanups.push(() => a.stop());
  const b = await startBerth(shared);
  cleanups.push(() => b.stop());
  const user = await signUpAndIn(a, "nodes");

  const first = `bench-v0-${randomBytes(4).toString("hex")}`;
  const site = await createSite(a.port, user, "Nodes bench", page(first));
  const siteHost = new URL(site.url).hostname;
  const cluster: Cluster = { a, b, user, site, hostOn: (node) => `${siteHost}:${node.port}` };
  const warm = new http.Agent({ keepAlive: true, maxSockets: 1 });
  for (const node of [a, b]) await pollUntil(node, warm, cluster.hostOn(node), first, 10);
  warm.destroy();

  console.log(`Anchor: ${options.deploys} NOTIFY → LISTEN round trips between two pg clients`);
  const notify = await notifyRoundTrips(db.url, options.deploys);

  console.log(
    `Deploys through A: ${options.deploys} each watched on B and on A from A's answer, and on B from the upload's last byte; ` +
      `in turns, polling every ${options.pollMs} ms`,
  );
  const results = new Map(WATCHES.map((w) => [w, [] as Array<WatchResult>]));
  let previous = first;
  for (let i = 0; i < options.deploys * WATCHES.length; i++) {
    const watch = WATCHES[i % WATCHES.length]!;
    const marker = `bench-v${i + 1}-${randomBytes(4).toString("hex")}`;
    const r = await deployAndWatch(cluster, watch, marker, previous, options.pollMs);
    previous = marker;
    results.get(watch)!.push(r);
    console.log(
      `  deploy ${i + 1}: A's API ${r.apiMs.toFixed(1)} ms; watched on ${watch}: new page at ${r.ms >= 0 ? "+" : ""}${r.ms.toFixed(1)} ms ` +
        `from A's answer (${r.polls} polls, the last sent at ${r.sentAfter >= 0 ? "+" : ""}${r.sentAfter.toFixed(1)} ms; the same GET again: ${r.warmMs.toFixed(1)} ms)`,
    );
  }
  console.log(report(results, notify, options.pollMs));
  writeSummary(options.summaryJson, {
    bench: "nodes",
    quick: options.quick,
    figures: headlineFigures(results, notify),
    notes: [
      `${options.deploys} deploys watched each way, a poll every ${options.pollMs} ms; two Berth processes on one PostgreSQL database and one S3 bucket (s3rver)`,
    ],
  });
  console.log(`The bench took ${((performance.now() - started) / 1000).toFixed(0)} s. Load average at the end: ${loadAverage()}`);
}

/** For bench/all.ts: A → B at p50 and p95, each against the same percentile of both anchors. */
function headlineFigures(results: Map<Watch, Array<WatchResult>>, notify: number[]): Figure[] {
  const ab = spread(results.get("B")!.map((r) => r.ms));
  const aa = spread(results.get("A")!.map((r) => r.ms));
  const raw = spread(notify);
  return (["p50", "p95"] as const).map((p) => ({
    figure: `A's deploy answered → B serves it, ${p}`,
    value: ab[p],
    unit: "ms",
    anchors: [
      { label: `A → A (A's own edge) ${p}`, value: aa[p] },
      { label: `NOTIFY → LISTEN ${p}`, value: raw[p] },
    ],
  }));
}

function report(results: Map<Watch, Array<WatchResult>>, notify: number[], pollMs: number): string {
  const fmt = (v: number) => v.toFixed(1);
  const row = (label: string, s: Spread) => `| ${label} | ${s.n} | ${fmt(s.p50)} | ${fmt(s.p95)} | ${fmt(s.max)} |`;
  const of = (watch: Watch, pick: (r: WatchResult) => number) => spread(results.get(watch)!.map(pick));
  const ab = of("B", (r) => r.ms);
  const aa = of("A", (r) => r.ms);
  const early = of("B early", (r) => r.ms);
  const raw = spread(notify);
  const onB = results.get("B")!;
  const firstPoll = onB.filter((r) => r.polls === 1).length;
  return [
    "",
    `### A's API answered → the node serves the new page (ms; a poll every ${pollMs} ms, each counted when its answer arrived)`,
    "",
    "| Measure | n | p50 | p95 | max |",
    "| --- | ---: | ---: | ---: | ---: |",
    row("A → B (through PostgreSQL NOTIFY)", ab),
    row("anchor: A → A (A's own edge)", aa),
    row("anchor: NOTIFY → LISTEN, two pg clients", raw),
    row("B polled from the upload's last byte: new page, relative to A's answer", early),
    row(
      "… the poll that got it was sent, relative to A's answer",
      of("B early", (r) => r.sentAfter),
    ),
    row(
      "B: the same GET again, from its caches",
      of("B", (r) => r.warmMs),
    ),
    row(
      "A's API: deploy request → response",
      spread(
        results
          .get("B")!
          .concat(results.get("A")!, results.get("B early")!)
          .map((r) => r.apiMs),
      ),
    ),
    "",
    `A → B / NOTIFY→LISTEN: p50 ${times(ab.p50, raw.p50, 1)}, p95 ${times(ab.p95, raw.p95, 1)}. ` +
      `A → B / A → A: p50 ${times(ab.p50, aa.p50, 1)}, p95 ${times(ab.p95, aa.p95, 1)}. ` +
      `A → B minus A → A (the relay's own share): p50 ${fmt(ab.p50 - aa.p50)} ms.`,
    "",
    `B served the new page at the first poll after A's answer in ${firstPoll} of ${onB.length} deploys; that poll was sent ` +
      `p50 ${spread(onB.map((r) => r.sentAfter)).p50.toFixed(2)} ms after the answer.` +
      (firstPoll === onB.length
        ? " So the relay was faster than the bench can see from outside, and A → B is B's first, uncached answer" +
          " (site, deployment and manifest from PostgreSQL, the page from S3), as A → A is A's."
        : ""),
    `Polled from the upload's last byte, B's answer with the new page arrived ${early.p50 < 0 ? `${fmt(-early.p50)} ms before` : `${fmt(early.p50)} ms after`} ` +
      "A's answer (p50; negative values in the rows: before it). An uncached answer takes as long as A → A, so B had dropped its cache by the time that poll reached it.",
    "",
  ].join("\n");
}

await runBench("nodes", () => parseArgs(process.argv.slice(2)), USAGE, main);
