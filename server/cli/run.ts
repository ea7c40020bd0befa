// `npm run berth -- admin <command>`: parses the command line, then runs the command in the live
// Berth process that holds the data directory (over its admin socket), or, when none does,
// against the database directly. Exit codes: 0 done, 1 the command failed, 2 a usage mistake.
import { existsSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { adminSocketPath } from "../adminSocket";
import { DataDirLockedError } from "../db/lock";
import { findPlan } from "../../common/plans";
import { EnvError, loadEnv, type Env } from "../env";
import { AppError } from "../errors";
import { runAdminCommand, type AdminCommand, type AdminCommandResult } from "../services/admin/runCommand";
import { parseArgs, USAGE, UsageError } from "./args";
import { formatUserList } from "./format";
import { NoDatabaseError, withLocalContext } from "./local";
import { CommandFailedError, sendAdminCommand } from "./socketClient";

export interface CliIo {
  env: Record<string, string | undefined>;
  stdout(text: string): void;
  stderr(text: string): void;
  /** How long to wait for a starting server to open its admin socket. */
  socketWaitMs?: number;
}

/** A Berth process holds the data directory but its admin socket does not answer. */
class ServerUnreachableError extends Error {}

export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`${error.message}\n\n${USAGE}\n`);
    return 2;
  }
  if (parsed.kind === "help") {
    io.stdout(`${USAGE}\n`);
    return 0;
  }
  let env: Env;
  try {
    env = loadEnv(io.env, []);
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    io.stderr(`${error.message}\n`);
    return 1;
  }
  if (parsed.command.command === "set-plan" && !findPlan(env.plans, parsed.command.plan)) {
    const ids = env.plans.plans.map((plan) => plan.id);
    const choices = ids.length === 1 ? ids[0] : `${ids.slice(0, -1).join(", ")} or ${ids.at(-1)}`;
    io.stderr(`Unknown plan "${parsed.command.plan}": choose ${choices}.\n\n${USAGE}\n`);
    return 2;
  }
  try {
    const result = await execute(env, parsed.command, io.socketWaitMs ?? 10_000);
    io.stdout(`${parsed.json ? JSON.stringify(jsonOf(result), null, 2) : render(result)}\n`);
    return 0;
  } catch (error) {
    if (
      error instanceof AppError ||
      error instanceof CommandFailedError ||
      error instanceof NoDatabaseError ||
      error instanceof ServerUnreachableError
    ) {
      io.stderr(`Error: ${error.message}\n`);
      return 1;
    }
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EACCES" || code === "EPERM") {
      io.stderr(`Error: permission denied in ${env.dataDir}. Run the command as the user Berth runs as.\n`);
      return 1;
    }
    throw error;
  }
}

function render(result: AdminCommandResult): string {
  return result.kind === "users" ? formatUserList(result.users) : result.message;
}

/** --json: the list (AdminUsersResponse), the user after the change (AdminUser), or { message }. */
function jsonOf(result: AdminCommandResult): unknown {
  if (result.kind === "users") return result.users;
  if (result.kind === "user") return result.user;
  return { message: result.message };
}

async function execute(env: Env, command: AdminCommand, socketWaitMs: number): Promise<AdminCommandResult> {
  try {
    return await withLocalContext(env, (ctx) => runAdminCommand(ctx, command));
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    return sendToServer(env.dataDir, error.pid, command, socketWaitMs);
  }
}

/** A server that has just started opens its socket after migrations; wait for it a little. */
async function sendToServer(dataDir: string, pid: number, command: AdminCommand, waitMs: number): Promise<AdminCommandResult> {
  const socketPath = adminSocketPath(dataDir);
  const deadline = Date.now() + waitMs;
  for (;;) {
    if (existsSync(socketPath)) {
      try {
        return await sendAdminCommand(socketPath, command);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== "ECONNREFUSED" && code !== "ENOENT") throw error;
      }
    }
    if (Date.now() >= deadline) {
      throw new ServerUnreachableError(
        `Berth (pid ${pid}) is using ${dataDir} but does not accept admin commands at ${socketPath}. ` +
          "It may run without the api role: run the command where the api role runs, or stop Berth and run it again.",
      );
    }
    await sleep(200);
  }
}
