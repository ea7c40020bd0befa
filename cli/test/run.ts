// Running the berth CLI in tests: in-process through run() (quick, for many cases), or as the
// built file in a child process (what users run: the bundle, its exit codes, its streams).
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { run } from "../src/main";
import { createReporter } from "../src/progress";
import type { Context } from "../src/context";
import type { RetryPolicy } from "../src/http";

const repository = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: Record<string, string>;
  cwd?: string;
  stdin?: string;
  retry?: RetryPolicy;
}

/** Retries in tests: the same steps, milliseconds apart. */
export const QUICK_RETRY: RetryPolicy = { attempts: 4, baseMs: 5, maxMs: 20, maxRetryAfterMs: 5_000 };

/** A fresh, empty home for the config file, so no test sees another's sign-in (or the machine's). */
export function freshHome(): string {
  return mkdtempSync(path.join(os.tmpdir(), "berth-cli-home-"));
}

/** Runs `berth …argv` in this process. The environment is only what `env` says, plus a fresh config home. */
export async function runInProcess(argv: string[], options: RunOptions = {}): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const errors = { write: (text: string) => ((stderr += text), true), isTTY: false } as unknown as NodeJS.WriteStream;
  const ctx: Context = {
    env: { XDG_CONFIG_HOME: freshHome(), ...options.env },
    cwd: options.cwd ?? process.cwd(),
    stdin: Readable.from([options.stdin ?? ""]),
    stdout: { write: (text: string) => ((stdout += text), true) },
    reporter: createReporter(errors),
    retry: options.retry ?? QUICK_RETRY,
  };
  const code = await run(argv, ctx);
  return { code, stdout, stderr };
}

/** Builds the CLI as the package ships it, into a temporary folder; the path of berth.js. */
export function buildCliForTest(): string {
  const outfile = path.join(mkdtempSync(path.join(os.tmpdir(), "berth-cli-build-")), "berth.js");
  execFileSync(process.execPath, [path.join(repository, "scripts/build-cli.mjs"), outfile], { stdio: "pipe" });
  return outfile;
}

/** Runs the built CLI in a child process, with only PATH, HOME and `env` in its environment. */
export function runBuilt(berth: string, argv: string[], options: RunOptions = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [berth, ...argv], {
      cwd: options.cwd ?? process.cwd(),
      env: { PATH: process.env.PATH ?? "", HOME: freshHome(), ...options.env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(options.stdin ?? "");
  });
}

/** A local port nothing listens on (it was free a moment ago): connections to it are refused. */
export async function closedPort(): Promise<number> {
  const { createServer } = await import("node:net");
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
