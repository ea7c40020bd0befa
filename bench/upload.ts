// Upload bench: how long a 10 MiB, 1,000-file zip takes from its last byte to being live, and how
// much memory the server holds while a single 50 MiB file streams in. Each figure is printed
// beside an anchor measured in the same run on the same machine (uploadAnchors.ts), and as a
// ratio to it (uploadReport.ts).
//
//   npm run bench:upload               # builds, then runs (about 7 minutes, most of them waiting for
//                                      # the work each publish starts in the background)
//   npx tsx bench/upload.ts            # uses dist/ as it is
//   npx tsx bench/upload.ts --quick    # 2 zip runs instead of 5 (about 2 minutes)
//
// Options: --runs N (measured zip runs after the warm-up, default 5), --quick (= --runs 2),
// --summary-json FILE (the headline figures as JSON, for bench/all.ts), --help.
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import type { SiteResponse, UploadResponse } from "../common/sites";
import { root, startBerth, type Berth } from "../e2e/support/berth";
import { writeZip, type ZipEntrySpec } from "../server/test/uploads/zipBuilder";
import { createSite, multipart, signUpAndIn, type BenchUser } from "./account";
import { cleanups, cpuTimeMs, loadAverage, pidOf, RssSampler, runBench, sendTimed, timedGet, waitForQuiet, type TimedResponse } from "./support";
import { parseBenchArgs, writeSummary } from "./summary";
import { extractWithUnzip, extractWithYauzl, startSink, type Sink } from "./uploadAnchors";
import { headlineFigures, mb, MiB, ms, report, RSS_REPEATS, ZIP_BYTES, ZIP_FILES, type RssRun, type ZipRun } from "./uploadReport";

const POLL_INTERVAL_MS = 5;
const RSS_SAMPLE_MS = 10;
/** The Free plan's largest file, to the byte (common/plans.ts). */
const FREE_MAX_FILE = 50 * MiB;

interface Options {
  /** Measured zip runs, after one warm-up. */
  runs: number;
  quick: boolean;
  summaryJson: string | undefined;
}

const USAGE = `Usage: npm run bench:upload -- [--quick] [--runs N] [--summary-json FILE]
  --runs N             measured runs of the 1,000-file zip, after one warm-up (default 5)
  --quick              = --runs 2: a smoke test of the figures, not figures to quote
  --summary-json FILE  also write the headline figures (last byte → live, RSS delta) there as JSON`;

function parseArgs(allArgs: readonly string[]): Options | undefined {
  return parseBenchArgs<Options>(
    allArgs,
    USAGE,
    (summaryJson) => ({ runs: 5, quick: false, summaryJson }),
    (options, arg, number) => {
      if (arg === "--quick") Object.assign(options, { runs: 2, quick: true });
      else if (arg === "--runs") options.runs = number();
      else return false;
      return true;
    },
  );
}

/** This run's temporary directory (zips, the anchors' unzips, the sink's files); made by main. */
let tmp = "";

/** A server with a signed-in user, whose headers every API call sends. */
interface Session {
  berth: Berth;
  user: BenchUser;
}

async function signIn(berth: Berth): Promise<Session> {
  return { berth, user: await signUpAndIn(berth, "upload") };
}

/** A site with one small page, created the way the wizard does it. */
function createBenchSite(session: Session): Promise<SiteResponse> {
  return createSite(session.berth.port, session.user, "Bench site", { name: "index.html", content: "<h1>first</h1>", type: "text/html" });
}

// ---------------------------------------------------------------------------------------------
// Part 1: a 10 MiB zip of 1,000 files, last byte → live.

/** 1,000 entries, stored (random bytes do not deflate), sizes varied so the zip is exactly 10 MiB. */
async function buildZip(file: string, marker: string): Promise<number> {
  const folders = ["assets/css", "assets/js", "img", "pages"];
  const exts = ["css", "js", "png", "html"];
  const index = Buffer.from(`<!doctype html><title>bench</title><p data-run="${marker}">${marker}</p>\n`);
  const names = Array.from({ length: ZIP_FILES - 1 }, (_, i) => `${folders[i % 4]}/file-${String(i).padStart(4, "0")}.${exts[i % 4]}`);
  const overhead = 22 + [Buffer.from("index.html"), ...names.map((n) => Buffer.from(n))].reduce((sum, n) => sum + 30 + 46 + 2 * n.length, 0);
  const budget = ZIP_BYTES - overhead - index.length;
  // Weights between 0.5 and 1.5, spread deterministically: files from about 5 to 15 KiB.
  const weights = names.map((_, i) => 0.5 + ((i * 7919) % 1000) / 1000);
  const total = weights.reduce((a, b) => a + b, 0);
  const sizes = weights.map((w) => Math.floor((budget * w) / total));
  sizes[sizes.length - 1]! += budget - sizes.reduce((a, b) => a + b, 0);
  const entries: ZipEntrySpec[] = [
    { name: "index.html", data: index, method: "store" },
    ...names.map((name, i): ZipEntrySpec => ({ name, data: randomBytes(sizes[i]!), method: "store" })),
  ];
  return writeZip(file, entries);
}

/** GET / on the site's host until it shows `marker`; one request at a time, ~5 ms apart. */
async function waitUntilLive(port: number, host: string, marker: string, agent: http.Agent): Promise<{ at: number; polls: number }> {
  const deadline = performance.now() + 60_000;
  for (let polls = 1; ; polls++) {
    const page = await timedGet(agent, port, "/", { host });
    if (page.body.includes(marker)) return { at: performance.now(), polls };
    // The old version (200) is expected while the upload is processed; an error is not.
    if (page.status !== 200) throw new Error(`the site answered ${page.status}: ${page.body.slice(0, 200)}`);
    if (performance.now() > deadline) throw new Error(`the site never showed ${marker}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
  }
}

interface ZipUpload {
  marker: string;
  zipPath: string;
  body: Buffer;
  headers: http.OutgoingHttpHeaders;
}

/** A new zip with a marker of its own in index.html, and the multipart body that uploads it. */
async function newZipUpload(run: string): Promise<ZipUpload> {
  const marker = `bench-run-${run}-${randomBytes(6).toString("hex")}`;
  const zipPath = path.join(tmp, `site-${run}.zip`);
  const zipSize = await buildZip(zipPath, marker);
  if (zipSize !== ZIP_BYTES) throw new Error(`zip is ${zipSize} bytes, expected ${ZIP_BYTES}`);
  return { marker, zipPath, ...multipart({ extract: "true" }, { name: "site.zip", content: readFileSync(zipPath), type: "application/zip" }) };
}

function checkUpload(res: TimedResponse): void {
  if (res.status !== 201) throw new Error(`upload: ${res.status} ${res.body}`);
  const { deployment } = JSON.parse(res.body) as UploadResponse;
  if (deployment.status !== "success" || deployment.file_count !== ZIP_FILES) {
    throw new Error(`unexpected deployment: ${JSON.stringify(deployment)}`);
  }
}

/**
 * One run, on an idle server: a new zip uploaded while the site is polled (live time, response
 * time), then the wait for the background work that publish starts, then the same bytes through
 * the anchors, then another new zip uploaded with nobody polling (response time and server CPU),
 * because ~150 polls a second cost the server CPU of their own.
 */
async function zipRun(session: Session, site: SiteResponse, sink: Sink, run: number): Promise<ZipRun> {
  const { marker, zipPath, body, headers } = await newZipUpload(String(run));
  const { port } = session.berth;
  const pid = pidOf(session.berth);
  await waitForQuiet(pid);

  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const host = new URL(site.url).host;
  let live: Promise<{ at: number; polls: number }> | undefined;
  const ours = await sendTimed(port, `/api/sites/${site.id}/files`, { ...session.user.headers, ...headers }, body, () => {
    live = waitUntilLive(port, host, marker, agent);
  });
  checkUpload(ours);
  if (!live) throw new Error("the upload's last byte never left");
  const shown = await live;
  agent.destroy();
  // Background work the publish started (e.g. precompressing files) must not overlap what follows.
  const background = await waitForQuiet(pid);

  // The anchors, on the very same bytes.
  const plain = await sendTimed(sink.port, "/upload", headers, body);
  if (plain.status !== 201) throw new Error(`sink: ${plain.status} ${plain.body}`);
  const extract = await extractWithYauzl(zipPath, path.join(tmp, `plain-${run}`), false);
  const extractSynced = await extractWithYauzl(zipPath, path.join(tmp, `synced-${run}`), true);
  const unzip = await extractWithUnzip(zipPath, path.join(tmp, `unzip-${run}`));

  const quiet = await newZipUpload(`${run}b`);
  const cpuBefore = cpuTimeMs(pid);
  const unpolled = await sendTimed(port, `/api/sites/${site.id}/files`, { ...session.user.headers, ...quiet.headers }, quiet.body);
  const cpuUnpolled = cpuTimeMs(pid) - cpuBefore;
  checkUpload(unpolled);
  await waitForQuiet(pid);
  for (const name of [`plain-${run}`, `synced-${run}`, `unzip-${run}`, `site-${run}.zip`, `site-${run}b.zip`]) {
    rmSync(path.join(tmp, name), { recursive: true, force: true });
  }

  return {
    live: shown.at - ours.lastByteAt,
    response: ours.respondedAt - ours.lastByteAt,
    total: ours.respondedAt - ours.startedAt,
    send: ours.lastByteAt - ours.startedAt,
    responseUnpolled: unpolled.respondedAt - unpolled.lastByteAt,
    cpuUnpolled,
    backgroundBusy: background.busyMs,
    backgroundCpu: background.cpuMs,
    polls: shown.polls,
    sinkResponse: plain.respondedAt - plain.lastByteAt,
    sinkTotal: plain.respondedAt - plain.startedAt,
    extract,
    extractSynced,
    unzip,
  };
}

// ---------------------------------------------------------------------------------------------
// Part 2: the server's memory while one large file streams in.

/**
 * A fresh server per size, warmed by one small upload, so both sizes start from the same state;
 * then RSS_REPEATS uploads of new bytes, each from an idle server with VmHWM reset just before it.
 */
async function rssRuns(fileBytes: number): Promise<RssRun[]> {
  const berth = await startBerth({ BERTH_LOG_LEVEL: "warn" });
  cleanups.push(() => berth.stop());
  try {
    const pid = pidOf(berth);
    const session = await signIn(berth);
    const site = await createBenchSite(session);
    const upload = async (bytes: number) => {
      const { body, headers } = multipart({}, { name: "report.pdf", content: randomBytes(bytes), type: "application/pdf" });
      await waitForQuiet(pid);
      const sampler = new RssSampler(pid);
      sampler.start(RSS_SAMPLE_MS);
      const res = await sendTimed(berth.port, `/api/sites/${site.id}/files`, { ...session.user.headers, ...headers }, body);
      const memory = sampler.stop();
      if (res.status !== 201) throw new Error(`upload of ${bytes} bytes: ${res.status} ${res.body}`);
      return { ...memory, fileBytes: bytes, response: res.respondedAt - res.startedAt };
    };
    await upload(MiB);
    const runs: RssRun[] = [];
    for (let i = 0; i < RSS_REPEATS; i++) runs.push(await upload(fileBytes));
    return runs;
  } finally {
    await berth.stop();
  }
}

// ---------------------------------------------------------------------------------------------

async function main(options: Options): Promise<void> {
  tmp = mkdtempSync(path.join(os.tmpdir(), "berth-bench-upload-"));
  cleanups.push(() => rmSync(tmp, { recursive: true, force: true }));
  mkdirSync(path.join(tmp, "sink"));
  const sink = await startSink(path.join(root, "bench/sinkServer.ts"), path.join(tmp, "sink"));
  cleanups.push(() => sink.stop());

  const berth = await startBerth({ BERTH_LOG_LEVEL: "warn" });
  cleanups.push(() => berth.stop());
  const session = await signIn(berth);
  const site = await createBenchSite(session);

  console.log(
    `Upload bench: ${os.cpus().length} cores, Node ${process.version}, temp and data dirs under ${os.tmpdir()}; load average ${loadAverage()}`,
  );
  console.log(
    `Part 1: ${options.runs} runs (after 1 warm-up), each a new ${ZIP_BYTES} B stored zip of ${ZIP_FILES} random files to the same site, extract=true`,
  );
  const warmUp = await zipRun(session, site, sink, 0);
  console.log(`  warm-up: last byte → live ${ms(warmUp.live)}, → response ${ms(warmUp.response)}`);
  const runs: ZipRun[] = [];
  for (let run = 1; run <= options.runs; run++) {
    const r = await zipRun(session, site, sink, run);
    runs.push(r);
    console.log(
      `  run ${run}: send ${ms(r.send)}; last byte → live ${ms(r.live)} (${r.polls} polls), → response ${ms(r.response)}, ` +
        `unpolled → response ${ms(r.responseUnpolled)} (CPU ${ms(r.cpuUnpolled)}); background ${ms(r.backgroundBusy)} (CPU ${ms(r.backgroundCpu)}); sink ${ms(r.sinkResponse)}; yauzl ${ms(r.extract)}, with fsync ${ms(r.extractSynced)}` +
        (r.unzip === undefined ? "" : `; unzip ${ms(r.unzip)}`),
    );
  }
  await berth.stop();

  console.log(`Part 2: server RSS while one file uploads (${RSS_REPEATS} per size, a fresh server per size, sampled every ${RSS_SAMPLE_MS} ms)`);
  const rss: RssRun[] = [];
  for (const bytes of [10 * MiB, FREE_MAX_FILE]) {
    for (const r of await rssRuns(bytes)) {
      rss.push(r);
      console.log(
        `  ${bytes} B: ${r.samples} samples (longest gap ${ms(r.maxGapMs)}), before ${mb(r.beforeKb)}, peak ${mb(r.peakKb)}, ` +
          `VmHWM ${mb(r.hwmKb)} (${r.hwmReset ? "reset just before the upload" : "since start: could not reset"})`,
      );
    }
  }
  console.log(`Load average at the end: ${loadAverage()}`);

  console.log(report(runs, rss));
  writeSummary(options.summaryJson, { bench: "upload", quick: options.quick, ...headlineFigures(runs, rss) });
}

await runBench("upload", () => parseArgs(process.argv.slice(2)), USAGE, main);
