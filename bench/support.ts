// The tools every bench shares: a POST timed to the moment its last byte reaches the socket, a
// timed keep-alive GET, readers of another process's CPU time and memory from /proc, a wait
// until a server is idle, percentiles and ratios, stopping child processes, and runBench (a
// bench's options, its clean-up on failure and on Ctrl-C, and its one-line errors).
import type { ChildProcess } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import type { Berth } from "../e2e/support/berth";

/**
 * A failure the bench explains in its message (a missing tool, a setup step the server refused):
 * printed as one line, `bench:<name>: message`, without a stack.
 */
export class BenchError extends Error {}

// ---------------------------------------------------------------------------------------------
// Figures.

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
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

/** A figure against its anchor, as the benches print it: "2.88×". */
export function times(value: number, anchor: number, digits: number): string {
  return `${(value / anchor).toFixed(digits)}×`;
}

/** The 1, 5 and 15 minute load averages, for the record: figures from a busy machine say so. */
export function loadAverage(): string {
  return os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
}

// ---------------------------------------------------------------------------------------------
// Timed requests.

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
        if (lastByteAt === undefined && status >= 400) return resolve({ status, body: text, startedAt, lastByteAt: respondedAt, respondedAt });
        void finished.then((at) => resolve({ status, body: text, startedAt, lastByteAt: at, respondedAt }));
      });
    });
    const startedAt = performance.now();
    req.end(body);
  });
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

// ---------------------------------------------------------------------------------------------
// Another process: its CPU time and memory (Linux /proc), waiting until it is idle, stopping it.

/** CPU time (user + system) a process has used so far, in ms; Linux reports it in 1/100 s ticks. */
export function cpuTimeMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // The command name (field 2) may hold spaces; the fields after its closing parenthesis do not.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The same in seconds, or undefined once the process is gone. */
export function cpuSeconds(pid: number): number | undefined {
  try {
    return cpuTimeMs(pid) / 1000;
  } catch {
    return undefined;
  }
}

export interface QuietRule {
  /** How long one window of CPU readings lasts. */
  windowMs: number;
  /** CPU a window may use and still count as quiet: an idle server's timers tick now and then. */
  maxCpuMs: number;
  /** Quiet windows in a row that make the process idle. */
  windows: number;
  timeoutMs: number;
}

/** Background work after a request (the benches' default): two 250 ms windows of at most one 10 ms tick. */
const AFTER_A_REQUEST: QuietRule = { windowMs: 250, maxCpuMs: 10, windows: 2, timeoutMs: 180_000 };

/**
 * Waits until `pid` has used (almost) no CPU for `rule.windows` windows in a row: background work
 * started by the last request is done. Returns how long that work went on and the CPU it used.
 * Throws when the process is gone, or still busy after `rule.timeoutMs`.
 */
export async function waitForQuiet(pid: number, rule: QuietRule = AFTER_A_REQUEST): Promise<{ busyMs: number; cpuMs: number }> {
  const started = performance.now();
  const firstCpu = cpuTimeMs(pid);
  let lastCpu = firstCpu;
  let lastBusy = started;
  for (let quiet = 0; quiet < rule.windows;) {
    await new Promise((resolve) => setTimeout(resolve, rule.windowMs));
    const cpu = cpuTimeMs(pid);
    if (cpu - lastCpu <= rule.maxCpuMs) quiet += 1;
    else {
      quiet = 0;
      lastBusy = performance.now();
    }
    lastCpu = cpu;
    if (performance.now() - started > rule.timeoutMs) throw new Error(`process ${pid} still busy after ${rule.timeoutMs} ms`);
  }
  return { busyMs: lastBusy - started, cpuMs: lastCpu - firstCpu };
}

/**
 * VmRSS and VmHWM of a process from /proc/<pid>/status, in kB; undefined once it is gone, and for
 * an exiting process (a zombie), which has no memory lines left.
 */
export function memoryOf(pid: number): { rssKb: number; hwmKb: number } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/status`, "utf8");
  } catch {
    return undefined;
  }
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(text)?.[1] ?? Number.NaN);
  const memory = { rssKb: kb("VmRSS"), hwmKb: kb("VmHWM") };
  return Number.isFinite(memory.rssKb) && Number.isFinite(memory.hwmKb) ? memory : undefined;
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
    this.beforeKb = this.read().rssKb;
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
      hwmKb: this.read().hwmKb,
      hwmReset: this.hwmReset,
      samples: this.samples,
      maxGapMs: this.maxGapMs,
    };
  }

  private read(): { rssKb: number; hwmKb: number } {
    const memory = memoryOf(this.pid);
    // The server is expected to live through the upload: its end is the bench's failure.
    if (!memory) throw new Error(`process ${this.pid} is gone`);
    return memory;
  }

  private sample(): void {
    const now = performance.now();
    this.maxGapMs = Math.max(this.maxGapMs, now - this.lastAt);
    this.lastAt = now;
    this.samples += 1;
    this.peakKb = Math.max(this.peakKb, this.read().rssKb);
  }
}

export function pidOf(berth: Berth): number {
  const pid = berth.process.child.pid;
  if (pid === undefined) throw new Error("the server has no pid");
  return pid;
}

/** Sends `signal` to a child that is still running and resolves once it has exited. */
export async function stopChild(child: ChildProcess, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill(signal);
  await exited;
}

// ---------------------------------------------------------------------------------------------
// Running a bench.

/**
 * Steps that undo what a bench set up (servers, databases, directories), run last first. A step
 * is given the signal that ended the bench, if one did, to pass on to a child that must hear it.
 */
export const cleanups: Array<(signal: NodeJS.Signals | undefined) => Promise<void> | void> = [];

async function cleanUp(signal?: NodeJS.Signals): Promise<void> {
  for (const step of cleanups.reverse()) await Promise.resolve(step(signal)).catch(() => undefined);
  cleanups.length = 0;
}

/**
 * Runs a bench: parses its options (undefined: print the usage), runs its main, whose number is
 * the exit code, and the cleanups at the end, on a failure and on Ctrl-C or SIGTERM too. A
 * BenchError, from parsing or from main, is printed as `bench:<name>: message` with exit code 1.
 */
export async function runBench<O>(
  name: string,
  parse: () => O | undefined,
  usage: string,
  main: (options: O) => Promise<number | void>,
): Promise<void> {
  for (const [signal, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const) {
    process.once(signal, () => {
      void cleanUp(signal).finally(() => process.exit(code));
    });
  }
  try {
    const options = parse();
    if (!options) return console.log(usage);
    const code = await main(options);
    if (typeof code === "number") process.exitCode = code;
  } catch (error) {
    if (!(error instanceof BenchError)) throw error;
    console.error(`bench:${name}: ${error.message}`);
    process.exitCode = 1;
  } finally {
    await cleanUp();
  }
}
