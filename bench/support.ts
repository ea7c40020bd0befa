// Measuring tools for the benches: a POST timed to the moment its last byte reaches the socket,
// a timed keep-alive GET, plain unzips with yauzl and with Info-ZIP (anchors), a child-process
// sink server (another anchor), readers of another process's CPU time and resident memory from
// /proc, and percentiles.
import { spawn } from "node:child_process";
import { createWriteStream, readFileSync, writeFileSync } from "node:fs";
import { mkdir, open } from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import yauzl from "yauzl";

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export interface TimedResponse {
  status: number;
  body: string;
  /** performance.now() when the request was handed to node:http. */
  startedAt: number;
  /** When the body's last byte was handed to the socket ('finish' on the request). */
  lastByteAt: number;
  /** When the response's status line and headers arrived. */
  respondedAt: number;
}

/** POSTs `body` to 127.0.0.1:`port` on a new connection; `onLastByte` runs as the last byte leaves. */
export function sendTimed(
  port: number,
  pathname: string,
  headers: http.OutgoingHttpHeaders,
  body: Buffer,
  onLastByte: (at: number) => void = () => undefined,
): Promise<TimedResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: "127.0.0.1",
      port,
      method: "POST",
      path: pathname,
      headers: { ...headers, "content-length": body.length },
      agent: false,
    });
    let lastByteAt: number | undefined;
    const finished = new Promise<number>((done) =>
      req.once("finish", () => {
        lastByteAt = performance.now();
        onLastByte(lastByteAt);
        done(lastByteAt);
      }),
    );
    req.on("error", reject);
    req.on("response", (res) => {
      const respondedAt = performance.now();
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", reject);
      res.on("end", () => {
        const status = res.statusCode ?? 0;
        const text = Buffer.concat(chunks).toString("utf8");
        // A server may answer before reading everything (a refusal); then there is no last byte.
        if (lastByteAt === undefined && status >= 400)
          return resolve({
            status,
            body: text,
            startedAt,
            lastByteAt: respondedAt,
            respondedAt,
          });
        void finished.then((at) =>
          resolve({
            status,
            body: text,
            startedAt,
            lastByteAt: at,
            respondedAt,
          }),
        );
      });
    });
    const startedAt = performance.now();
    req.end(body);
  });
}

/**
 * Unzips every file of `zipPath` under `dir` with yauzl and plain streams, as an `unzip` would.
 * `sync`: fsync each file and its folder, the durability Berth's blob store pays for. Returns ms.
 */
export async function extractWithYauzl(zipPath: string, dir: string, sync: boolean): Promise<number> {
  const started = performance.now();
  const zip = await yauzl.openPromise(zipPath, {
    lazyEntries: true,
    autoClose: false,
  });
  try {
    const made = new Set<string>();
    for await (const entry of zip.eachEntry()) {
      if (entry.fileName.endsWith("/")) continue;
      const target = path.join(dir, entry.fileName);
      const folder = path.dirname(target);
      if (!made.has(folder)) {
        await mkdir(folder, { recursive: true });
        made.add(folder);
      }
      await pipeline(await zip.openReadStreamPromise(entry), createWriteStream(target, { flush: sync }));
      if (sync) {
        const handle = await open(folder, "r");
        await handle.sync().finally(() => handle.close());
      }
    }
  } finally {
    zip.close();
  }
  return performance.now() - started;
}

/** The same with Info-ZIP's `unzip` (native, no fsync), when it is installed; ms, or undefined. */
export function extractWithUnzip(zipPath: string, dir: string): Promise<number | undefined> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn("unzip", ["-q", "-o", zipPath, "-d", dir], { stdio: "ignore" });
    child.once("error", (error: NodeJS.ErrnoException) => (error.code === "ENOENT" ? resolve(undefined) : reject(error)));
    child.once("exit", (code) => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`unzip exited ${String(code)}`))));
  });
}

export interface Sink {
  port: number;
  stop(): Promise<void>;
}

/** Starts sinkServer.ts as a child (through the same tsx loader as this process). */
export async function startSink(script: string, dir: string): Promise<Sink> {
  const child = spawn(process.execPath, [...process.execArgv, script, dir], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split("\n")[0];
      if (out.includes("\n") && line) resolve((JSON.parse(line) as { port: number }).port);
    });
    child.once("exit", (code) => reject(new Error(`sink exited (${String(code)}) before listening`)));
  });
  return {
    port,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

/** CPU time (user + system) a process has used so far, in ms; Linux reports it in 1/100 s ticks. */
export function cpuTimeMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // The command name (field 2) may hold spaces; the fields after its closing parenthesis do not.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * Waits until `pid` has used (almost) no CPU for two 250 ms windows in a row: background work
 * started by the last request is done. Returns how long that work went on and the CPU it used.
 */
export async function waitForQuiet(pid: number, timeoutMs = 180_000): Promise<{ busyMs: number; cpuMs: number }> {
  const windowMs = 250;
  const started = performance.now();
  const firstCpu = cpuTimeMs(pid);
  let lastCpu = firstCpu;
  let lastBusy = started;
  for (let quiet = 0; quiet < 2; ) {
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    const cpu = cpuTimeMs(pid);
    // One 10 ms tick per window is an idle server's timers, not work.
    if (cpu - lastCpu <= 10) quiet += 1;
    else {
      quiet = 0;
      lastBusy = performance.now();
    }
    lastCpu = cpu;
    if (performance.now() - started > timeoutMs) throw new Error(`process ${pid} still busy after ${timeoutMs} ms`);
  }
  return { busyMs: lastBusy - started, cpuMs: lastCpu - firstCpu };
}

export interface RssReport {
  /** VmRSS just before the upload started. */
  beforeKb: number;
  /** The highest VmRSS seen by the sampler. */
  peakKb: number;
  /** VmHWM after the upload: the true peak, since the reset when hwmReset, else since start. */
  hwmKb: number;
  hwmReset: boolean;
  samples: number;
  /** The longest gap between two samples: a peak shorter than this can slip between them. */
  maxGapMs: number;
}

function readStatus(pid: number): { rssKb: number; hwmKb: number } {
  const text = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(text)?.[1] ?? Number.NaN);
  return { rssKb: kb("VmRSS"), hwmKb: kb("VmHWM") };
}

/** Samples another process's resident memory from /proc/<pid>/status (Linux). */
export class RssSampler {
  private timer: NodeJS.Timeout | undefined;
  private beforeKb = 0;
  private peakKb = 0;
  private samples = 0;
  private lastAt = 0;
  private maxGapMs = 0;
  private hwmReset = false;

  constructor(private readonly pid: number) {}

  start(intervalMs: number): void {
    this.beforeKb = readStatus(this.pid).rssKb;
    this.peakKb = this.beforeKb;
    // Writing 5 to clear_refs resets VmHWM to the current RSS (Linux 4.0+), so VmHWM afterwards is
    // the exact peak of the upload, including spikes shorter than the sampling interval.
    try {
      writeFileSync(`/proc/${this.pid}/clear_refs`, "5");
      this.hwmReset = true;
    } catch {
      this.hwmReset = false;
    }
    this.lastAt = performance.now();
    this.timer = setInterval(() => this.sample(), intervalMs);
  }

  stop(): RssReport {
    clearInterval(this.timer);
    this.sample();
    return {
      beforeKb: this.beforeKb,
      peakKb: this.peakKb,
      hwmKb: readStatus(this.pid).hwmKb,
      hwmReset: this.hwmReset,
      samples: this.samples,
      maxGapMs: this.maxGapMs,
    };
  }

  private sample(): void {
    const now = performance.now();
    this.maxGapMs = Math.max(this.maxGapMs, now - this.lastAt);
    this.lastAt = now;
    this.samples += 1;
    this.peakKb = Math.max(this.peakKb, readStatus(this.pid).rssKb);
  }
}

/** The value below which `p` percent of the samples fall (nearest rank). */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export interface Spread {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export function spread(values: readonly number[]): Spread {
  return { n: values.length, p50: percentile(values, 50), p95: percentile(values, 95), p99: percentile(values, 99), max: Math.max(...values) };
}

/** The 1, 5 and 15 minute load averages, for the record: figures from a busy machine say so. */
export function loadAverage(): string {
  return os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
}

export interface TimedGet {
  status: number;
  body: string;
  /** Request handed to node:http → last byte of the body, ms. */
  ms: number;
  /** performance.now() when the body's last byte arrived. */
  at: number;
}

/** GET on 127.0.0.1:`port` through `agent` (keep-alive, as a browser holds its connections). */
export function timedGet(agent: http.Agent, port: number, pathname: string, headers: http.OutgoingHttpHeaders): Promise<TimedGet> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.request({ host: "127.0.0.1", port, path: pathname, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", reject);
      res.on("end", () => {
        const at = performance.now();
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8"), ms: at - started, at });
      });
    });
    req.on("error", reject);
    req.end();
  });
}

/** Steps that undo what a bench set up (servers, databases, directories), run last first. */
export const cleanups: Array<() => Promise<void> | void> = [];

async function cleanUp(): Promise<void> {
  for (const step of cleanups.reverse()) await Promise.resolve(step()).catch(() => undefined);
  cleanups.length = 0;
}

/**
 * Runs a bench's main with its options, or prints its usage; the cleanups run at the end, on a
 * failure and on Ctrl-C or SIGTERM too.
 */
export async function runBench<O>(options: O | undefined, usage: string, main: (options: O) => Promise<void>): Promise<void> {
  for (const [signal, code] of [["SIGINT", 130], ["SIGTERM", 143]] as const) {
    process.once(signal, () => {
      void cleanUp().finally(() => process.exit(code));
    });
  }
  if (!options) return console.log(usage);
  try {
    await main(options);
  } finally {
    await cleanUp();
  }
}
