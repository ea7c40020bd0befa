// Upload bench: how long a 10 MiB, 1,000-file zip takes from its last byte to being live, and how
// much memory the server holds while a single 50 MiB file streams in. Each figure is printed
// beside an anchor measured in the same run on the same machine, and as a ratio to it.
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
import { fileURLToPath } from "node:url";
import { startBerth, type Berth } from "../e2e/support/berth";
import { waitFor } from "../e2e/support/pages";
import type { SiteResponse, UploadResponse } from "../common/sites";
import { multipartBody, type UploadPart } from "../server/test/sites";
import { writeZip, type ZipEntrySpec } from "../server/uploads/testing/zipBuilder";
import {
  cleanups,
  cpuTimeMs,
  extractWithUnzip,
  extractWithYauzl,
  median,
  RssSampler,
  runBench,
  sendTimed,
  startSink,
  type RssReport,
  type Sink,
  type TimedResponse,
  waitForQuiet,
} from "./support";
import { parseBenchArgs, writeSummary, type Figure } from "./summary";

const MiB = 1024 * 1024;
const ZIP_FILES = 1_000;
const ZIP_BYTES = 10 * MiB;
const POLL_INTERVAL_MS = 5;
const RSS_SAMPLE_MS = 10;
const RSS_REPEATS = 3;
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

interface Session {
  berth: Berth;
  /** Headers every API call sends: the dashboard's Host and Origin, and the session cookie. */
  headers: http.OutgoingHttpHeaders;
}

/** Signs up, confirms through the outbox link and signs in, as a person would. */
async function signIn(berth: Berth): Promise<Session> {
  const user = { email: `bench-${Date.now()}@example.com`, password: "bench password 1", name: "Bench" };
  const api = (p: string, body: unknown) =>
    fetch(`http://127.0.0.1:${berth.port}${p}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: berth.url },
      body: JSON.stringify(body),
    });
  const signUp = await api("/api/auth/sign-up/email", user);
  if (!signUp.ok) throw new Error(`sign-up failed: ${signUp.status} ${await signUp.text()}`);
  const link = await waitFor(() => berth.outbox.lastLink(user.email, /Confirm your e-mail/));
  await fetch(link, { redirect: "manual" });
  const signedIn = await api("/api/auth/sign-in/email", { email: user.email, password: user.password });
  const cookie = signedIn.headers
    .getSetCookie()
    .find((c) => c.startsWith("berth.session_token="))
    ?.split(";")[0];
  if (!signedIn.ok || !cookie) throw new Error(`sign-in failed: ${signedIn.status} ${await signedIn.text()}`);
  return { berth, headers: { host: `localhost:${berth.port}`, origin: berth.url, cookie } };
}

function pidOf(berth: Berth): number {
  const pid = berth.process.child.pid;
  if (pid === undefined) throw new Error("the server has no pid");
  return pid;
}

async function postJson<T>(session: Session, p: string, body: unknown): Promise<T> {
  const payload = Buffer.from(JSON.stringify(body));
  const res = await sendTimed(session.berth.port, p, { ...session.headers, "content-type": "application/json" }, payload);
  if (res.status >= 300) throw new Error(`POST ${p}: ${res.status} ${res.body}`);
  return JSON.parse(res.body) as T;
}

function multipart(fields: Record<string, string>, file: UploadPart): { body: Buffer; headers: http.OutgoingHttpHeaders } {
  const { body, contentType } = multipartBody(fields, file);
  return { body, headers: { "content-type": contentType } };
}

/** A site with one small page, created the way the wizard does it. */
async function createSite(session: Session): Promise<SiteResponse> {
  const { subdomain } = await postJson<{ subdomain: string }>(session, "/api/subdomains/reserve", {});
  const page: UploadPart = { name: "index.html", content: "<h1>first</h1>", type: "text/html" };
  const { body, headers } = multipart({ name: "Bench site", subdomain }, page);
  const res = await sendTimed(session.berth.port, "/api/sites", { ...session.headers, ...headers }, body);
  if (res.status !== 201) throw new Error(`create site: ${res.status} ${res.body}`);
  return JSON.parse(res.body) as SiteResponse;
}

// ---------------------------------------------------------------------------------------------
// Part 1: a 10 MiB zip of 1,000 files, last byte → live.

/** 1,000 entries, stored (random bytes do not deflate), sizes varied so the zip is exactly 10 MiB. */
async function buildZip(file: string, marker: string): Promise<number> {
  const folders = ["assets/css", "assets/js", "img", "pages"];
  const exts = ["css", "js", "png", "html"];
  const index = Buffer.from(`<!doctype html><title>bench</title><p data-run="${marker}">${marker}</p>\n`);
  const names = Array.from({ length: ZIP_FILES - 1 }, (_, i) => `${folders[i % 4]}/file-${String(i).padStart(4, "0")}.${exts[i % 4]}`);
  const overhead =
    22 + [Buffer.from("index.html"), ...names.map((n) => Buffer.from(n))].reduce((sum, n) => sum + 30 + 46 + 2 * n.length, 0);
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

interface ZipRun {
  /** Berth: last byte → the edge serves the new index.html. */
  live: number;
  /** Berth: last byte → response headers. */
  response: number;
  /** Berth: request start → response headers. */
  total: number;
  /** Berth: request start → last byte handed to the socket. */
  send: number;
  /** Berth: last byte → response headers for a second new zip uploaded with nobody polling. */
  responseUnpolled: number;
  /** Server CPU (user + system) from the start of that unpolled upload to its response. */
  cpuUnpolled: number;
  /** After the response: how long the server kept working in the background, and its CPU. */
  backgroundBusy: number;
  backgroundCpu: number;
  polls: number;
  sinkResponse: number;
  sinkTotal: number;
  extract: number;
  extractSynced: number;
  /** Info-ZIP's unzip on the same zip; undefined when it is not installed. */
  unzip: number | undefined;
}

/** GET / on the site's host until it shows `marker`; one request at a time, ~5 ms apart. */
async function waitUntilLive(port: number, host: string, marker: string, agent: http.Agent): Promise<{ at: number; polls: number }> {
  const deadline = performance.now() + 60_000;
  for (let polls = 1; ; polls++) {
    const page = await get(port, host, agent);
    if (page.body.includes(marker)) return { at: performance.now(), polls };
    // The old version (200) is expected while the upload is processed; an error is not.
    if (page.status !== 200) throw new Error(`the site answered ${page.status}: ${page.body.slice(0, 200)}`);
    if (performance.now() > deadline) throw new Error(`the site never showed ${marker}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
  }
}

function get(port: number, host: string, agent: http.Agent): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path: "/", headers: { host }, agent }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
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
  const file: UploadPart = { name: "site.zip", content: readFileSync(zipPath), type: "application/zip" };
  return { marker, zipPath, ...multipart({ extract: "true" }, file) };
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
  const pid = pidOf(session.berth);
  await waitForQuiet(pid);

  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const host = new URL(site.url).host;
  let live: Promise<{ at: number; polls: number }> | undefined;
  const ours = await sendTimed(session.berth.port, `/api/sites/${site.id}/files`, { ...session.headers, ...headers }, body, () => {
    live = waitUntilLive(session.berth.port, host, marker, agent);
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
  const unpolled = await sendTimed(session.berth.port, `/api/sites/${site.id}/files`, { ...session.headers, ...quiet.headers }, quiet.body);
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

interface RssRun extends RssReport {
  fileBytes: number;
  response: number;
}

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
    const site = await createSite(session);
    const upload = async (bytes: number) => {
      const { body, headers } = multipart({}, { name: "report.pdf", content: randomBytes(bytes), type: "application/pdf" });
      await waitForQuiet(pid);
      const sampler = new RssSampler(pid);
      sampler.start(RSS_SAMPLE_MS);
      const res = await sendTimed(berth.port, `/api/sites/${site.id}/files`, { ...session.headers, ...headers }, body);
      const report = sampler.stop();
      if (res.status !== 201) throw new Error(`upload of ${bytes} bytes: ${res.status} ${res.body}`);
      return { ...report, fileBytes: bytes, response: res.respondedAt - res.startedAt };
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

const ms = (v: number) => `${v.toFixed(1)} ms`;
const mb = (kb: number) => `${(kb / 1024).toFixed(1)} MiB`;
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;

const load = () => os.loadavg().map((l) => l.toFixed(2)).join(" ");

async function main(options: Options): Promise<void> {
  tmp = mkdtempSync(path.join(os.tmpdir(), "berth-bench-upload-"));
  cleanups.push(() => rmSync(tmp, { recursive: true, force: true }));
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  mkdirSync(path.join(tmp, "sink"));
  const sink = await startSink(path.join(root, "bench/sinkServer.ts"), path.join(tmp, "sink"));
  cleanups.push(() => sink.stop());

  const berth = await startBerth({ BERTH_LOG_LEVEL: "warn" });
  cleanups.push(() => berth.stop());
  const session = await signIn(berth);
  const site = await createSite(session);

  console.log(
    `Upload bench: ${os.cpus().length} cores, Node ${process.version}, temp and data dirs under ${os.tmpdir()}; load average ${load()}`,
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
  console.log(`Load average at the end: ${load()}`);

  console.log(report(runs, rss));
  writeSummary(options.summaryJson, { bench: "upload", quick: options.quick, ...headlineFigures(runs, rss) });
}

const deltaKb = (r: RssRun) => Math.max(r.peakKb, r.hwmKb) - r.beforeKb;

/** For bench/all.ts: last byte → live against its anchors, and the largest RSS delta per file size. */
function headlineFigures(runs: ZipRun[], rss: RssRun[]): { figures: Figure[]; notes: string[] } {
  const m = (pick: (r: ZipRun) => number) => median(runs.map(pick));
  const sink = m((r) => r.sinkResponse);
  const unzip = runs.every((r) => r.unzip !== undefined) ? m((r) => r.unzip ?? 0) : undefined;
  const figures: Figure[] = [
    {
      figure: `${ZIP_FILES.toLocaleString("en")}-file zip (${ZIP_BYTES / MiB} MiB): last byte → live, median of ${runs.length}`,
      value: m((r) => r.live),
      unit: "ms",
      anchors: [
        { label: "sink + yauzl unzip", value: sink + m((r) => r.extract) },
        { label: "sink + yauzl, fsync per file", value: sink + m((r) => r.extractSynced) },
        ...(unzip === undefined ? [] : [{ label: "sink + Info-ZIP unzip", value: sink + unzip }]),
      ],
    },
  ];
  for (const bytes of [...new Set(rss.map((r) => r.fileBytes))]) {
    const of = rss.filter((r) => r.fileBytes === bytes);
    figures.push({
      figure: `RSS delta while a ${bytes / MiB} MiB file streams in, largest of ${of.length}`,
      value: Math.max(...of.map(deltaKb)) / 1024,
      unit: "MiB",
      anchors: [{ label: "the file's size", value: bytes / MiB }],
    });
  }
  const before = rss.map((r) => r.beforeKb / 1024);
  return {
    figures,
    notes: [
      `${runs.length} zip runs after 1 warm-up; after each, ${(m((r) => r.backgroundBusy) / 1000).toFixed(1)} s of background work ` +
        `(${(m((r) => r.backgroundCpu) / 1000).toFixed(1)} s of server CPU, medians); server RSS before the single-file uploads ` +
        `${Math.min(...before).toFixed(0)}–${Math.max(...before).toFixed(0)} MiB (PGlite)`,
    ],
  };
}

/** The figures as Markdown: medians with their samples, each beside its anchor and the ratio. */
function report(runs: ZipRun[], rss: RssRun[]): string {
  const m = (pick: (r: ZipRun) => number) => median(runs.map(pick));
  const samples = (pick: (r: ZipRun) => number) => runs.map((r) => pick(r).toFixed(0)).join(", ");
  const berth = (pick: (r: ZipRun) => number) => `${ms(m(pick))} (${samples(pick)})`;
  const row = (label: string, pick: (r: ZipRun) => number, anchorLabel: string, anchor: number) =>
    `| ${label} | ${berth(pick)} | ${anchorLabel}: ${ms(anchor)} | ${ratio(m(pick), anchor)} |`;
  const live = (r: ZipRun) => r.live;
  const sink = m((r) => r.sinkResponse);
  const unzip = runs.every((r) => r.unzip !== undefined) ? m((r) => r.unzip ?? 0) : undefined;

  const lines = [
    `### ${ZIP_BYTES / MiB} MiB zip of ${ZIP_FILES} files (stored), median of ${runs.length} (samples in brackets)`,
    "",
    "| Measure | Berth, median (samples) | Anchor: same bytes, same run, median | Berth / anchor |",
    "| --- | --- | --- | --- |",
    row("last byte → live", live, "sink writes the body + yauzl unzips it", sink + m((r) => r.extract)),
    row("last byte → live", live, "sink + yauzl unzip, fsync per file and folder", sink + m((r) => r.extractSynced)),
    ...(unzip === undefined ? [] : [row("last byte → live", live, "sink + Info-ZIP unzip (native, no fsync)", sink + unzip)]),
    row("last byte → response", (r) => r.response, "sink, last byte → response", sink),
    row("last byte → response, nobody polling", (r) => r.responseUnpolled, "sink, last byte → response", sink),
    row(
      "request start → response",
      (r) => r.total,
      "sink, start → response",
      m((r) => r.sinkTotal),
    ),
    row(
      "request start → last byte (send)",
      (r) => r.send,
      "sink, start → last byte",
      m((r) => r.sinkTotal - r.sinkResponse),
    ),
    `| server CPU, unpolled upload start → response | ${berth((r) => r.cpuUnpolled)} | | |`,
    `| background work after the response: busy for | ${berth((r) => r.backgroundBusy)} | (250 ms resolution) | |`,
    `| background work after the response: server CPU | ${berth((r) => r.backgroundCpu)} | | |`,
    "",
    `Anchor samples: sink ${samples((r) => r.sinkResponse)}; yauzl ${samples((r) => r.extract)}; ` +
      `yauzl with fsync ${samples((r) => r.extractSynced)}${unzip === undefined ? "" : `; Info-ZIP ${samples((r) => r.unzip ?? 0)}`} (ms).`,
    "",
    `### Server RSS while one file uploads (POST /api/sites/:id/files, report.pdf; a fresh server per size, ${RSS_REPEATS} uploads each)`,
    "",
    "| File | Upload time | RSS before | Peak RSS (sampled) | VmHWM | Delta | Delta / file size |",
    "| --- | --- | --- | --- | --- | --- | --- |",
    ...rss.map((r) => {
      const delta = deltaKb(r);
      const perByte = ((delta * 1024) / r.fileBytes).toFixed(3);
      return `| ${r.fileBytes} B | ${ms(r.response)} | ${mb(r.beforeKb)} | ${mb(r.peakKb)} | ${mb(r.hwmKb)} | ${mb(delta)} | ${perByte} |`;
    }),
    "",
    ...[...new Set(rss.map((r) => r.fileBytes))].map((bytes) => {
      const deltas = rss.filter((r) => r.fileBytes === bytes).map(deltaKb);
      return `Largest delta for ${bytes} B: ${mb(Math.max(...deltas))} = ${((Math.max(...deltas) * 1024) / bytes).toFixed(3)} of the file.`;
    }),
  ];
  return `\n${lines.join("\n")}\n`;
}

await runBench(parseArgs(process.argv.slice(2)), USAGE, main);
