// The edge bench's site: the harness's corpus as a live site in a fresh data directory, created
// through the API as a person would, with Berth's own brotli and gzip forms made before anything
// is measured, and every path the harness will request checked against what nginx answers.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { freePort, getWithHost, runBerth, type RunningProcess } from "../e2e/support/berth";
import { openDatabase } from "../server/db/client";
import { rowsOf } from "../server/db/rows";
import { blobsAwaitingCompression } from "../server/db/repositories/variants";
import { MIN_COMPRESS_BYTES } from "../server/services/compressVariants";
import { Outbox } from "../server/test/outbox";
import { writeZip, type ZipEntrySpec } from "../server/test/uploads/zipBuilder";
import { createSite, signUpAndIn } from "./account";
import type { HarnessCase } from "./edgeHarness";
import { BenchError, cleanups, stopChild, waitForQuiet, type QuietRule } from "./support";

/** Berth's settings for a data directory and port. */
export type BerthEnv = (dataDir: string, port: number) => Record<string, string>;

export interface Prepared {
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

export interface CaseMismatch {
  case: HarnessCase;
  /** e.g. "301 → /" for one path, or "167 of 1000 paths: 301" for the many case. */
  detail: string;
  /** The many case's paths that answer otherwise than nginx. */
  paths?: string[];
}

/** Compression is done once the server has used under 5 % of a core for 1.5 s running. */
const COMPRESSION_DONE: QuietRule = { windowMs: 500, maxCpuMs: 20, windows: 3, timeoutMs: 10 * 60_000 };

// ---------------------------------------------------------------------------------------------
// The server while the site is set up.

async function waitHealthy(proc: RunningProcess, port: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const state = await Promise.race([proc.exited, new Promise((resolve) => setTimeout(resolve, 200, "running"))]);
    if (state !== "running") throw new BenchError(`Berth exited (${String(state)}) during startup:\n${proc.output()}`);
    if (
      await fetch(`http://127.0.0.1:${port}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    if (Date.now() > deadline) throw new BenchError(`Berth did not become healthy:\n${proc.output()}`);
  }
}

/** Resolves once the server's background work (compressing the site's files) is done. */
async function waitIdle(proc: RunningProcess): Promise<void> {
  const pid = proc.child.pid;
  if (pid === undefined) throw new BenchError("Berth has no pid");
  try {
    await waitForQuiet(pid, COMPRESSION_DONE);
  } catch (error) {
    if (proc.child.exitCode !== null || proc.child.signalCode !== null) throw new BenchError(`Berth exited while compressing:\n${proc.output()}`);
    throw new BenchError(`Berth did not go idle (compressing?): ${(error as Error).message}`);
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
export async function ensureVariants(site: Prepared, env: Record<string, string>): Promise<VariantState> {
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
      await stopChild(proc.child);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The paths the harness requests.

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
    const single: Array<[HarnessCase, string, number]> = [
      ["small", "/index.html", 200],
      ["medium", "/app.js", 200],
      ["large", "/files/report.pdf", 200],
      ["404", "/no/such/page.html", 404],
    ];
    for (const [cas, urlPath, expected] of single) {
      const { status, location } = await statusOf(port, host, urlPath, agent);
      if (status !== expected)
        mismatches.push({ case: cas, detail: `GET ${urlPath}: ${status}${location ? ` → ${location}` : ""} (nginx: ${expected})` });
    }
    const paths = readFileSync(`${corpus}.paths`, "utf8").split("\n").filter(Boolean);
    const off = new Map<string, string[]>();
    for (const urlPath of paths) {
      const { status } = await statusOf(port, host, urlPath, agent);
      if (status !== 200) off.set(String(status), [...(off.get(String(status)) ?? []), urlPath]);
    }
    for (const [status, list] of off) {
      mismatches.push({
        case: "many",
        detail: `${list.length} of ${paths.length} paths answer ${status} (nginx: 200), e.g. ${list[0]!}`,
        paths: list,
      });
    }
    return mismatches;
  } finally {
    agent.destroy();
  }
}

// ---------------------------------------------------------------------------------------------
// The site.

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

/** A data directory with `corpus` live as a site, the server stopped; removed at the end unless `keepData`. */
export async function prepareSite(corpus: string, keepData: boolean, berthEnv: BerthEnv): Promise<Prepared> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "berth-bench-edge-"));
  if (!keepData) cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = berthEnv(dataDir, port);
  const proc = runBerth(env);
  cleanups.push(() => stopChild(proc.child));
  try {
    await waitHealthy(proc, port);
    const user = await signUpAndIn({ port, url: env.BERTH_APP_URL!, outbox: new Outbox(path.join(dataDir, "outbox")) }, "edge");

    const files = corpusFiles(corpus);
    const entries = files.map((name): ZipEntrySpec => ({ name, data: readFileSync(path.join(corpus, name)), method: "store" }));
    const zipPath = path.join(dataDir, "..", `${path.basename(dataDir)}.zip`);
    cleanups.push(() => rmSync(zipPath, { force: true }));
    await writeZip(zipPath, entries);
    const bytes = entries.reduce((sum, e) => sum + (Buffer.isBuffer(e.data) ? e.data.length : 0), 0);
    const zip = readFileSync(zipPath);
    rmSync(zipPath, { force: true });

    const site = await createSite(port, user, "Bench corpus", { name: "bench-site.zip", content: zip, type: "application/zip" });
    if (site.file_count !== files.length) throw new BenchError(`site has ${site.file_count} files, the corpus ${files.length}`);
    // The site's own host name ({subdomain}.{BERTH_SITES_DOMAIN}) on the port the harness uses.
    const host = `${new URL(site.url).hostname}:${port}`;

    // A first look before the harness's own sanity check, so a broken site fails here, clearly:
    // the home page (at its canonical URL, /) and app.js must be the corpus's bytes.
    for (const [urlPath, file] of [
      ["/", "index.html"],
      ["/app.js", "app.js"],
    ] as const) {
      const res = await getWithHost(port, host, urlPath);
      if (res.status !== 200 || res.body !== readFileSync(path.join(corpus, file), "utf8")) {
        throw new BenchError(`GET ${urlPath} with Host ${host}: status ${res.status}, ${res.body.length} chars, not the corpus's ${file}`);
      }
    }
    // Publishing kicked off the brotli/gzip forms in the background; let them finish while the
    // server is up, so the harness measures the site as it will be served from then on.
    const compressStarted = Date.now();
    await waitIdle(proc);
    const compressSeconds = (Date.now() - compressStarted) / 1000;
    const mismatches = await checkCasePaths(port, host, corpus);
    return { dataDir, port, host, subdomain: site.subdomain, files: files.length, bytes, mismatches, compressSeconds };
  } catch (error) {
    const log = proc.output().trim();
    if (error instanceof BenchError && log) error.message += `\nBerth's output (last 3,000 characters):\n${log.slice(-3000)}`;
    throw error;
  } finally {
    await stopChild(proc.child);
  }
}
