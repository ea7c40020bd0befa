// BERTH_BACKUP_DAILY=true: the worker writes one backup a day into $BERTH_DATA_DIR/backups and
// keeps the newest seven. The schedule is the files themselves: a day's archive is named after its
// UTC date and only appears, by rename, once it is complete and verified, so the first check of a
// day that finds no file for it makes one, and a restart, a second check or a crash mid-backup
// can neither skip a day nor make two. (A second process cannot share the data directory: its lock.)
import { mkdir, readdir, rm } from "node:fs/promises";
import path from "node:path";
import type { AppContext } from "../context";
import { writeBackup, writeBackupFile } from "./createBackup";
import { readServerSecret } from "./serverSecret";

export const BACKUP_DIR = "backups";
export const KEEP_DAILY_BACKUPS = 7;
/** How often the worker looks whether today's backup exists. */
export const BACKUP_CHECK_INTERVAL_MS = 60_000;
/** After a failed backup, wait this long before trying again rather than retrying every minute. */
export const BACKUP_RETRY_MS = 60 * 60_000;

const DAILY = /^berth-(\d{4}-\d{2}-\d{2})\.tar\.gz$/;
const DAILY_PARTIAL = /^\.berth-\d{4}-\d{2}-\d{2}\.tar\.gz\..*\.partial$/;

export type DailyBackupContext = Pick<AppContext, "db" | "blobs" | "env" | "log">;
export type WriteArchive = (ctx: DailyBackupContext, file: string, signal?: AbortSignal) => Promise<void>;

export const dailyBackupName = (now: Date) => `berth-${now.toISOString().slice(0, 10)}.tar.gz`;

const writeArchive: WriteArchive = async (ctx, file, signal) => {
  const secret = readServerSecret(ctx.env);
  if (!secret) throw new Error("There is no server secret to back up");
  await writeBackupFile(file, (out) => writeBackup({ db: ctx.db, blobs: ctx.blobs, secret }, out, signal ? { signal } : {}));
};

/** Makes today's backup unless it exists, then keeps the newest seven. Returns the file it wrote. */
export async function runDailyBackup(
  ctx: DailyBackupContext,
  now = new Date(),
  write: WriteArchive = writeArchive,
  signal?: AbortSignal,
): Promise<string | undefined> {
  const dir = path.join(ctx.env.dataDir, BACKUP_DIR);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  let names = await readdir(dir);
  const today = dailyBackupName(now);
  let written: string | undefined;
  if (!names.includes(today)) {
    // What an interrupted run left: nothing else writes these names, and this run is the only one.
    for (const name of names.filter((n) => DAILY_PARTIAL.test(n))) await rm(path.join(dir, name), { force: true });
    const started = Date.now();
    written = path.join(dir, today);
    await write(ctx, written, signal);
    ctx.log.info({ file: written, ms: Date.now() - started }, "daily backup written");
    names = await readdir(dir);
  }
  const daily = names
    .filter((n) => DAILY.test(n))
    .sort()
    .reverse();
  for (const old of daily.slice(KEEP_DAILY_BACKUPS)) await rm(path.join(dir, old), { force: true });
  return written;
}

/**
 * The worker's task: runDailyBackup, resting an hour after a failure. `signal` is the worker
 * stopping: a backup under way is abandoned (its temporary file removed) instead of holding up
 * the shutdown, and the next start makes it again, since the day still has no file.
 */
export function dailyBackupTask(
  ctx: DailyBackupContext,
  options: { write?: WriteArchive; signal?: AbortSignal } = {},
): (now?: Date) => Promise<void> {
  let retryAt = 0;
  return async (now = new Date()) => {
    if (now.getTime() < retryAt || options.signal?.aborted) return;
    try {
      await runDailyBackup(ctx, now, options.write, options.signal);
    } catch (error) {
      if (options.signal?.aborted) return;
      retryAt = now.getTime() + BACKUP_RETRY_MS;
      throw error;
    }
  };
}
