// Two variants of Berth measured side by side: analytics collection on vs off (bench:edge's
// analytics section), or the same server on two Node versions (bench/nodeVersions.ts).
//
// Two Berth servers serve copies of the same data directory, by default one with
// BERTH_ANALYTICS=true and one with false, both pinned to the server core, each loaded by its own wrk on the other core,
// at the same time. Why not one pass after the other: on this kind of VM a core's speed swings by
// up to a fifth from one minute to the next (a CPU-bound loop ran 1,909 to 2,950 rounds a second
// in eight runs, with nothing else running), so passes minutes apart measured the machine as much
// as the collection. Side by side, a slow moment slows both. Both off (an A/A run) gives ratios of
// 0.98 to 1.03.
//
// Figures per round: each server's req/s, and its requests per CPU-second (from /proc), which
// does not depend on how the kernel shares the core between them. Conservative for the
// collection: each server gets about half the core, so what it does once a second whatever the
// load (the batch write) weighs about twice what it weighs on a server alone on a core.
import { spawn, type ChildProcess } from "node:child_process";
import { cpSync, openSync, closeSync, rmSync } from "node:fs";
import path from "node:path";
import { freePort, getWithHost, serverEntry } from "../e2e/support/berth";
import { SERVER_NODE_FLAGS } from "../scripts/server-flags.mjs";
import { cpuSeconds as cpuSecondsOrGone, median, stopChild } from "./support";

export interface SideBySideOptions {
  /** The prepared site's data directory; copied for the second server, never written by this. */
  dataDir: string;
  /** The site's host name without a port ({subdomain}.localhost). */
  hostName: string;
  /** Environment for both servers (BERTH_DATA_DIR, PORT and BERTH_APP_URL are set here). */
  env: (dataDir: string, port: number) => Record<string, string>;
  cases: ReadonlyArray<"small" | "many">;
  /** The harness's wrk script for the many case, and the paths file it reads. */
  manyScript: string;
  manyPaths: string;
  rounds: number;
  seconds: number;
  serverCpu: string;
  wrkCpu: string;
  /** Where the servers' logs go. */
  out: string;
  /** What differs between the two servers; by default analytics collection on and off. */
  variants?: { on: SideBySideVariant; off: SideBySideVariant };
}

/** One of the two servers: `on` is the variant measured, `off` its anchor. */
export interface SideBySideVariant {
  /** Names its log file and its errors. */
  name: string;
  /** Settings on top of the shared ones. */
  env: Record<string, string>;
  /** The node binary to run it with; this process's own when absent. */
  node?: string;
}

const ANALYTICS_VARIANTS = {
  on: { name: "analytics on", env: { BERTH_ANALYTICS: "true" } },
  off: { name: "analytics off", env: { BERTH_ANALYTICS: "false" } },
};

export interface SideBySideRound {
  on: { rps: number; cpuSeconds: number };
  off: { rps: number; cpuSeconds: number };
}

export interface SideBySideCase {
  case: "small" | "many";
  rounds: SideBySideRound[];
  /** Medians over the rounds of on / off. */
  rpsRatio: number;
  perCpuRatio: number;
  onRps: number;
  offRps: number;
  /** Medians of requests per CPU-second. */
  onPerCpu: number;
  offPerCpu: number;
}

const CONNECTIONS = 64;
const WARM_UP_SECONDS = 3;
const PATHS = { small: "/index.html", many: "/" } as const;

interface Server {
  child: ChildProcess;
  port: number;
  host: string;
}

async function startServer(options: SideBySideOptions, dataDir: string, variant: SideBySideVariant): Promise<Server> {
  const port = await freePort();
  const log = openSync(path.join(options.out, `side-by-side-${variant.name.replace(/[^\w.-]+/g, "-")}.log`), "a");
  const child = spawn("taskset", ["-c", options.serverCpu, variant.node ?? process.execPath, ...SERVER_NODE_FLAGS, serverEntry], {
    env: { ...process.env, ...options.env(dataDir, port), BERTH_ROLES: "edge,api", ...variant.env },
    stdio: ["ignore", log, log],
  });
  closeSync(log);
  const host = `${options.hostName}:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server (${variant.name}) exited with ${child.exitCode}; see ${options.out}`);
    const res = await getWithHost(port, host, "/").catch(() => undefined);
    if (res?.status === 200) return { child, port, host };
    if (Date.now() > deadline) throw new Error(`the server (${variant.name}) did not serve ${host} within 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function cpuSeconds(pid: number): number {
  const seconds = cpuSecondsOrGone(pid);
  if (seconds === undefined) throw new Error(`the server (pid ${pid}) is gone`);
  return seconds;
}

function wrk(options: SideBySideOptions, server: Server, cas: "small" | "many", seconds: number): Promise<number> {
  const script = cas === "many" ? ["-s", options.manyScript] : [];
  const args = [
    "-c",
    options.wrkCpu,
    "wrk",
    "-t1",
    `-c${CONNECTIONS}`,
    `-d${seconds}s`,
    ...script,
    "-H",
    `Host: ${server.host}`,
    `http://127.0.0.1:${server.port}${PATHS[cas]}`,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn("taskset", args, { env: { ...process.env, BENCH_MANY_PATHS: options.manyPaths }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("exit", (code) => {
      const rps = /Requests\/sec:\s+([\d.]+)/.exec(output);
      if (code !== 0 || !rps) return reject(new Error(`wrk exited ${String(code)}: ${output.slice(-500)}`));
      resolve(Number(rps[1]));
    });
  });
}

/** Both servers under load at once for `seconds`: each one's req/s and CPU time. */
async function round(options: SideBySideOptions, on: Server, off: Server, cas: "small" | "many", seconds: number): Promise<SideBySideRound> {
  const before = [cpuSeconds(on.child.pid!), cpuSeconds(off.child.pid!)];
  const [onRps, offRps] = await Promise.all([wrk(options, on, cas, seconds), wrk(options, off, cas, seconds)]);
  return {
    on: { rps: onRps, cpuSeconds: cpuSeconds(on.child.pid!) - before[0]! },
    off: { rps: offRps, cpuSeconds: cpuSeconds(off.child.pid!) - before[1]! },
  };
}

export async function compareSideBySide(options: SideBySideOptions): Promise<SideBySideCase[]> {
  const variants = options.variants ?? ANALYTICS_VARIANTS;
  const copy = `${options.dataDir}-side-by-side`;
  rmSync(copy, { recursive: true, force: true });
  cpSync(options.dataDir, copy, { recursive: true });
  const servers: Server[] = [];
  try {
    const on = await startServer(options, options.dataDir, variants.on);
    servers.push(on);
    const off = await startServer(options, copy, variants.off);
    servers.push(off);
    const results: SideBySideCase[] = [];
    for (const cas of options.cases) {
      await round(options, on, off, cas, WARM_UP_SECONDS);
      const rounds: SideBySideRound[] = [];
      for (let i = 0; i < options.rounds; i++) {
        const r = await round(options, on, off, cas, options.seconds);
        rounds.push(r);
        console.log(
          `side by side r${i} ${cas.padEnd(5)} ${variants.on.name} ${r.on.rps.toFixed(0).padStart(6)} req/s (${r.on.cpuSeconds.toFixed(2)} CPU-s)  ` +
            `${variants.off.name} ${r.off.rps.toFixed(0).padStart(6)} req/s (${r.off.cpuSeconds.toFixed(2)} CPU-s)  ratio ${(r.on.rps / r.off.rps).toFixed(3)}`,
        );
      }
      results.push({
        case: cas,
        rounds,
        rpsRatio: median(rounds.map((r) => r.on.rps / r.off.rps)),
        perCpuRatio: median(rounds.map((r) => r.on.rps / r.on.cpuSeconds / (r.off.rps / r.off.cpuSeconds))),
        onRps: median(rounds.map((r) => r.on.rps)),
        offRps: median(rounds.map((r) => r.off.rps)),
        onPerCpu: median(rounds.map((r) => r.on.rps / r.on.cpuSeconds)),
        offPerCpu: median(rounds.map((r) => r.off.rps / r.off.cpuSeconds)),
      });
    }
    return results;
  } finally {
    for (const server of servers) await stopChild(server.child, "SIGINT");
    rmSync(copy, { recursive: true, force: true });
  }
}
