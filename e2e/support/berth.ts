// Starts the built server (dist/server/main.js) as a real process on a free port with a
// temporary data directory, the way a user runs it.
import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Outbox } from "../../server/test/outbox";
import { SERVER_NODE_FLAGS } from "../../scripts/server-flags.mjs";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const serverEntry = path.join(root, "dist/server/main.js");

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export interface RunningProcess {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

export interface RunOptions {
  /** The umask the process starts with, as a shell sets it (e.g. 0o022); unset: this process's own. */
  umask?: number;
}

export function runBerth(env: Record<string, string>, args: string[] = [], options: RunOptions = {}): RunningProcess {
  let output = "";
  // Through sh, as an operator's shell or service manager would start it, so that Berth gets the
  // umask before its first instruction.
  const [command, commandArgs] =
    options.umask === undefined
      ? [process.execPath, [...SERVER_NODE_FLAGS, serverEntry, ...args]]
      : [
          "/bin/sh",
          [
            "-c",
            `umask ${options.umask.toString(8).padStart(3, "0")} && exec "$0" "$@"`,
            process.execPath,
            ...SERVER_NODE_FLAGS,
            serverEntry,
            ...args,
          ],
        ];
  const child = spawn(command, commandArgs, {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", BERTH_LOG_FORMAT: "json", BERTH_LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output: () => output, exited };
}

export interface Berth {
  url: string;
  port: number;
  dataDir: string;
  outbox: Outbox;
  process: RunningProcess;
  /** SIGTERM, then removes the data directory unless told to keep it (to start on it again). */
  stop(options?: { keepDataDir?: boolean }): Promise<void>;
}

export interface StartOptions extends RunOptions {
  /** The data directory; need not exist yet. Unset: a new temporary directory. stop() removes it either way. */
  dataDir?: string;
  /** The port; unset: a free one. A node started again on its own port, as a balancer expects. */
  port?: number;
}

export async function startBerth(extraEnv: Record<string, string> = {}, options: StartOptions = {}): Promise<Berth> {
  const port = options.port ?? (await freePort());
  const dataDir = options.dataDir ?? mkdtempSync(path.join(os.tmpdir(), "berth-e2e-"));
  const url = `http://localhost:${port}`;
  const proc = runBerth(
    {
      PORT: String(port),
      BERTH_DATA_DIR: dataDir,
      BERTH_APP_URL: url,
      BERTH_CONTACT_EMAIL: "operator@berth.test",
      // Daily backups are on by default; a test that wants one turns them on itself, and the rest
      // do not spend their first seconds writing an archive.
      BERTH_BACKUP_DAILY: "false",
      ...extraEnv,
    },
    [],
    options,
  );
  const deadline = Date.now() + 60_000;
  for (;;) {
    const exitCode = await Promise.race([proc.exited, new Promise((r) => setTimeout(r, 200, "running"))]);
    if (exitCode !== "running") throw new Error(`Berth exited (${String(exitCode)}) during startup:\n${proc.output()}`);
    const healthy = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (healthy) break;
    if (Date.now() > deadline) throw new Error(`Berth did not become healthy:\n${proc.output()}`);
  }
  return {
    url,
    port,
    dataDir,
    outbox: new Outbox(path.join(dataDir, "outbox")),
    process: proc,
    async stop({ keepDataDir = false } = {}) {
      proc.child.kill("SIGTERM");
      await proc.exited;
      if (!keepDataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** GET with an explicit Host header (fetch cannot set one): how server-side tests reach a site. */
export function getWithHost(
  port: number,
  host: string,
  pathname = "/",
): Promise<{ status: number; body: string; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path: pathname, headers: { host } }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on("error", reject);
    req.end();
  });
}

/**
 * Moves a user to a plan with the admin CLI, as an operator does; resolves to the CLI's exit code.
 * `extraEnv`: what else the server was started with that the command needs (its DATABASE_URL).
 */
export function setPlan(berth: Berth, email: string, plan: "free" | "pro", extraEnv: Record<string, string> = {}): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn("npm", ["run", "--silent", "berth", "--", "admin", "set-plan", email, plan], {
      cwd: root,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", BERTH_DATA_DIR: berth.dataDir, BERTH_APP_URL: berth.url, ...extraEnv },
      stdio: "ignore",
    });
    child.on("error", reject);
    child.on("exit", resolve);
  });
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run --silent berth -- …` with only the given settings, as an operator types it. */
export function berthCli(env: Record<string, string>, ...args: string[]): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn("npm", ["run", "--silent", "berth", "--", ...args], {
      cwd: root,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, stdout, stderr: stderr.replace(/^npm warn.*\n/gm, "") }));
  });
}
