// The worker writes one backup a day into $BERTH_DATA_DIR/backups and keeps the newest seven
// (unless BERTH_BACKUP_DAILY=false). The schedule is the files themselves: a day's archive is named
// after its UTC date and only appears, by rename, once it is complete and verified, so the first
// check of a day that finds no file for it makes one, and a restart, a second check or a crash
// mid-backup can neither skip a day nor make two. (A second process cannot share the data
// directory: its lock.)
//
// Space: a day's archive holds the database, the secret and the list of the blobs it needs; the
// blobs themselves are in the shared folder backups/blobs (sharedBlobs.ts), once for all seven.
// So a day costs its database snapshot plus the blobs that are new since the day before.
//
// Order, so that a crash at any point leaves every kept backup restorable: the new day's blobs go
// into the shared folder, then its archive is written, verified and renamed into place; only
// then are archives past the seventh deleted, and after them the blobs no kept archive lists. A
// crash before the rename leaves blobs nothing lists yet (the next prune removes them); a crash
// during pruning leaves blobs a later prune removes. Pruning reads every kept archive's list and
// removes nothing when one cannot be read, as it could not tell what that backup needs.
import { mkdir, readdir, rm } from "node:fs/promises";
import path from "node:path";
import type { AppContext } from "../context";
import { writeBackupFile, writeSharedBackup } from "./createBackup";
import { readServerSecret } from "./serverSecret";
import { pruneSharedBlobs, removeSharedTemp, sharedBlobDir } from "./sharedBlobs";
import { readManifest } from "./verifyBackup";

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
  const shared = sharedBlobDir(path.dirname(file));
  await mkdir(shared, { recursive: true, mode: 0o700 });
  await writeBackupFile(
    file,
    (out) => writeSharedBackup({ db: ctx.db, blobs: ctx.blobs, secret }, shared, out, signal ? { signal } : {}),
    // The blobs it added were checked byte by byte as they went in; the rest were when they came.
    { sharedDigests: false },
  );
};

/**
 * Deletes the shared folder's blobs that no kept archive lists. Returns undefined (and deletes
 * nothing) when a kept archive's list cannot be read.
 */
export async function pruneDailyBlobs(
  ctx: Pick<DailyBackupContext, "log">,
  dir: string,
  kept: readonly string[],
): Promise<{ count: number; bytes: number } | undefined> {
  const needed = new Set<string>();
  for (const name of kept) {
    try {
      const manifest = await readManifest(path.join(dir, name));
      // Version 1 archives (daily backups from before the shared folder) hold their own blobs.
      if (manifest.formatVersion === 2) for (const blob of manifest.blobs.list) needed.add(blob.sha256);
    } catch (error) {
      ctx.log.warn({ err: error, file: path.join(dir, name) }, "daily backup unreadable: the shared blobs are not pruned");
      return undefined;
    }
  }
  return pruneSharedBlobs(sharedBlobDir(dir), needed);
}

/**
 * Makes today's backup unless it exists, then keeps the newest seven and the blobs they list.
 * Returns the file it wrote.
 */
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
    await removeSharedTemp(sharedBlobDir(dir));
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
  const old = daily.slice(KEEP_DAILY_BACKUPS);
  for (const name of old) await rm(path.join(dir, name), { force: true });
  // Once a day (reading seven lists is not for every minute): after a new backup, which may no
  // longer need some blobs, or when an archive went.
  if (written !== undefined || old.length > 0) {
    const pruned = await pruneDailyBlobs(ctx, dir, daily.slice(0, KEEP_DAILY_BACKUPS));
    if (pruned && pruned.count > 0) ctx.log.info({ blobs: pruned.count, bytes: pruned.bytes }, "daily backups: blobs no kept backup lists removed");
  }
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
