// `npm run berth -- backup <file>` and `restore <file>`. Exit codes as for the admin commands:
// 0 done, 1 failed, 2 a usage mistake.
//
// Where the snapshot is made:
//   PostgreSQL  here, through DATABASE_URL, whether or not Berth runs: a REPEATABLE READ
//               transaction needs no lock, and the blobs are only read.
//   PGlite      here when no Berth holds the data directory (the CLI takes its lock meanwhile);
//               otherwise by the running Berth, over its admin socket, since PGlite cannot be
//               opened by a second process. The CLI writes the file either way.
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { formatBytes } from "../../common/format";
import { adminSocketPath } from "../adminSocket";
import { BackupError, writeBackup, writeBackupFile } from "../backup/createBackup";
import type { BackupManifest } from "../backup/manifest";
import { RestoreRefusedError } from "../backup/restoreBackup";
import { InvalidBackupError } from "../backup/verifyBackup";
import { readServerSecret } from "../backup/serverSecret";
import { BackupRefusedError, receiveBackup } from "../backup/socketBackup";
import { openDatabase } from "../db/client";
import { DataDirLockedError, lockDataDir } from "../db/lock";
import { EnvError, loadEnv, type Env } from "../env";
import { createBlobStore } from "../storage";
import { UsageError } from "./args";
import { BACKUP_USAGE, parseBackupArgs, type BackupCommand } from "./backupArgs";
import { NoDatabaseError } from "./local";
import { runRestore } from "./restore";
import type { CliIo } from "./run";

export async function runBackupCli(argv: readonly string[], io: CliIo): Promise<number> {
  let command: BackupCommand;
  try {
    command = parseBackupArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr(`${error.message}\n\n${BACKUP_USAGE}\n`);
    return 2;
  }
  if (command.kind === "help") {
    io.stdout(`${BACKUP_USAGE}\n`);
    return 0;
  }
  let env: Env;
  try {
    env = loadEnv(command.kind === "restore" && command.dataDir ? { ...io.env, BERTH_DATA_DIR: command.dataDir } : io.env, []);
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    io.stderr(`${error.message}\n`);
    return 1;
  }
  try {
    if (command.kind === "restore") await runRestore(env, path.resolve(command.file), io);
    else await runBackup(env, path.resolve(command.file), io);
    return 0;
  } catch (error) {
    if (
      error instanceof BackupError ||
      error instanceof BackupRefusedError ||
      error instanceof InvalidBackupError ||
      error instanceof RestoreRefusedError ||
      error instanceof NoDatabaseError ||
      error instanceof DataDirLockedError
    ) {
      io.stderr(`Error: ${error.message}\n`);
      return 1;
    }
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EACCES" || code === "EPERM" || code === "ENOENT" || code === "EISDIR") {
      io.stderr(`Error: ${(error as Error).message}\n`);
      return 1;
    }
    throw error;
  }
}

async function runBackup(env: Env, file: string, io: CliIo): Promise<void> {
  if (!existsSync(path.dirname(file))) throw new BackupError(`The folder ${path.dirname(file)} does not exist.`);
  const manifest = env.databaseUrl ? await backUpPostgres(env, file) : await backUpPglite(env, file, io.socketWaitMs ?? 10_000);
  const { size } = statSync(file);
  io.stdout(
    [
      `Backed up Berth to ${file} (${formatBytes(size)}).`,
      `  database  ${manifest.database.kind === "pglite" ? "PGlite" : "PostgreSQL"}, as of ${manifest.createdAt}`,
      `  blobs     ${manifest.blobs.count} (${formatBytes(manifest.blobs.bytes)})`,
      "  secret    included",
      "The archive holds the server secret and every account's password hash: keep it private.",
      "",
    ].join("\n"),
  );
}

function requireSecret(env: Env): string {
  const secret = readServerSecret(env);
  if (!secret) {
    throw new BackupError(
      `There is no server secret to back up: set BERTH_SECRET, or BERTH_DATA_DIR to the server's data directory (it holds the file "secret").`,
    );
  }
  return secret;
}

async function backUpPostgres(env: Env, file: string): Promise<BackupManifest> {
  const secret = requireSecret(env);
  const database = await openDatabase({ url: env.databaseUrl! });
  try {
    const blobs = createBlobStore(env, env.dataDir);
    return await writeBackupFile(file, (out) => writeBackup({ db: database.db, blobs, secret }, out));
  } finally {
    await database.close();
  }
}

async function backUpPglite(env: Env, file: string, socketWaitMs: number): Promise<BackupManifest> {
  if (!existsSync(env.dataDir)) throw new NoDatabaseError(`The data directory ${env.dataDir} does not exist. Set BERTH_DATA_DIR as for the server.`);
  let releaseLock: () => void;
  try {
    releaseLock = lockDataDir(env.dataDir);
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    return backUpThroughServer(env, file, error.pid, socketWaitMs);
  }
  try {
    const pgliteDir = path.join(env.dataDir, "db");
    if (!existsSync(pgliteDir)) throw new NoDatabaseError(`There is no Berth database in ${pgliteDir}.`);
    const secret = requireSecret(env);
    const database = await openDatabase({ pgliteDir, buffersMb: env.dbBuffersMb });
    try {
      const blobs = createBlobStore(env, env.dataDir);
      return await writeBackupFile(file, (out) => writeBackup({ db: database.db, blobs, secret }, out));
    } finally {
      await database.close();
    }
  } finally {
    releaseLock();
  }
}

/** A server that has just started opens its socket after migrations; wait for it a little. */
async function backUpThroughServer(env: Env, file: string, pid: number, waitMs: number): Promise<BackupManifest> {
  const socketPath = adminSocketPath(env.dataDir);
  const deadline = Date.now() + waitMs;
  for (;;) {
    if (existsSync(socketPath)) {
      try {
        return await writeBackupFile(file, (out) => receiveBackup(socketPath, out));
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== "ECONNREFUSED" && code !== "ENOENT") throw error;
      }
    }
    if (Date.now() >= deadline) {
      throw new BackupRefusedError(
        `Berth (pid ${pid}) is using ${env.dataDir} but does not answer at ${socketPath}. ` +
          "It may run without the api role; with PGlite, back up where the api role runs, or stop Berth and run the backup again.",
      );
    }
    await sleep(200);
  }
}
