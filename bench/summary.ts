// The headline figures a bench hands to bench/all.ts: with `--summary-json <path>` each bench
// writes its figures here, each beside the anchor(s) measured in the same run, instead of all.ts
// scraping its printed tables. One shape for every bench, so all.ts renders them as one table.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { BenchError } from "./support";

export type BenchName = "edge" | "upload" | "api" | "nodes" | "deploy" | "memory";

export interface Anchor {
  label: string;
  /** In the figure's unit, so value / anchor.value is the ratio. */
  value: number;
}

export interface Figure {
  /** What was measured, e.g. "small GET /index.html (2 KB)". */
  figure: string;
  value: number;
  /** "req/s", "ms", "MiB" … shared by the anchors. */
  unit: string;
  anchors: Anchor[];
  /** Said beside the ratio, e.g. "on / off" when the anchor is not a lower bound. */
  note?: string;
}

export interface BenchSummary {
  bench: BenchName;
  quick: boolean;
  figures: Figure[];
  /** Conditions that belong with the figures: the database's size, runs that were noisy … */
  notes: string[];
}

/**
 * Takes `--summary-json <path>` (or `--summary-json=<path>`) out of `argv`: the benches have their
 * own parsers (the edge bench passes unknown options to its harness), so it goes before them.
 */
export function takeSummaryOption(argv: readonly string[]): { argv: string[]; summaryJson: string | undefined } {
  const rest: string[] = [];
  let summaryJson: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--summary-json") {
      summaryJson = argv[++i];
      if (summaryJson === undefined || summaryJson.startsWith("--")) throw new BenchError("--summary-json needs a file path");
    } else if (arg.startsWith("--summary-json=")) summaryJson = arg.slice("--summary-json=".length);
    else rest.push(arg);
  }
  return { argv: rest, summaryJson: summaryJson === undefined ? undefined : path.resolve(summaryJson) };
}

export function writeSummary(file: string | undefined, summary: BenchSummary): void {
  if (file === undefined) return;
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(summary, null, 1)}\n`);
}

/**
 * A bench's command line: `--help` or `-h` gives undefined (print the usage), `--summary-json`
 * is taken out, and every other option goes to `take` with a reader of its value (a positive
 * whole number). An option `take` does not know (it returns false) is an error naming the usage.
 */
export function parseBenchArgs<T>(
  allArgs: readonly string[],
  usage: string,
  defaults: (summaryJson: string | undefined) => T,
  take: (options: T, arg: string, number: () => number) => boolean,
): T | undefined {
  const { argv, summaryJson } = takeSummaryOption(allArgs);
  const options = defaults(summaryJson);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--help" || arg === "-h") return undefined;
    const number = () => {
      const value = Number(argv[++i]);
      if (!Number.isInteger(value) || value < 1) throw new BenchError(`${arg} needs a positive whole number`);
      return value;
    };
    if (!take(options, arg, number)) throw new BenchError(`unknown option ${arg}\n${usage}`);
  }
  return options;
}
