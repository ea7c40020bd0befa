// The digests of a folder's files, remembered between deploys of it, so that a redeploy reads
// only the files that changed: a file whose size, modification and change times and inode are
// those it had when it was hashed keeps its digest, as rsync's quick check and git's index
// decide. A file changed within RACY_MS of its hashing is read again however it looks, since a
// write in the same clock tick as the hashing would leave its times as they were (git's "racy
// clean" case; some file systems keep times to 1 or 2 seconds). Files that are sent are read
// and their digest checked again anyway; the server checks it too.
//
// One file per folder, $XDG_CACHE_HOME/berth/digests/<digest of the folder's real path>.json
// (else ~/.cache/…), owner-only. It is only a cache: unreadable, damaged or from another version,
// it is ignored, and a failure to write it is too.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { writePrivateFile } from "./privateFile";
import os from "node:os";
import path from "node:path";

/** What a file looked like when it was hashed. */
export interface FileStamp {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
}

export interface CachedDigest extends FileStamp {
  sha256: string;
  /** When the file was read for it (ms since the epoch), before the read began. */
  hashedAt: number;
}

/** Changes closer than this to the hashing do not vouch for the digest. */
export const RACY_MS = 2000;
const VERSION = 1;

/** The CLI's cache folder: $XDG_CACHE_HOME/berth, else ~/.cache/berth. */
export function cacheDir(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : path.join(env.HOME ?? os.homedir(), ".cache");
  return path.join(base, "berth");
}

export function digestCachePath(env: NodeJS.ProcessEnv, realRoot: string): string {
  const name = createHash("sha256").update(realRoot).digest("hex").slice(0, 32);
  return path.join(cacheDir(env), "digests", `${name}.json`);
}

/** The remembered digests by path inside the folder; empty when there are none to trust. */
export function readDigestCache(file: string): Map<string, CachedDigest> {
  const entries = new Map<string, CachedDigest>();
  try {
    const parsed = JSON.parse(readFileSync(file, "utf8")) as { version?: unknown; files?: unknown };
    if (parsed.version !== VERSION || typeof parsed.files !== "object" || parsed.files === null) return entries;
    for (const [name, value] of Object.entries(parsed.files as Record<string, unknown>)) {
      if (!Array.isArray(value) || value.length !== 6) continue;
      const [sha256, size, mtimeMs, ctimeMs, ino, hashedAt] = value as unknown[];
      if (typeof sha256 !== "string" || !/^[0-9a-f]{64}$/.test(sha256)) continue;
      if (![size, mtimeMs, ctimeMs, ino, hashedAt].every((n) => typeof n === "number" && Number.isFinite(n))) continue;
      entries.set(name, { sha256, size, mtimeMs, ctimeMs, ino, hashedAt } as CachedDigest);
    }
  } catch {
    // No cache yet, or one that cannot be read: every file is read.
  }
  return entries;
}

/** Writes the digests of this deploy's files, replacing the folder's cache whole (temporary file, then rename). */
export function writeDigestCache(file: string, digests: ReadonlyMap<string, CachedDigest>): void {
  const files: Record<string, unknown[]> = {};
  for (const [name, d] of digests) files[name] = [d.sha256, d.size, d.mtimeMs, d.ctimeMs, d.ino, d.hashedAt];
  try {
    writePrivateFile(file, JSON.stringify({ version: VERSION, files }));
  } catch {
    // A cache that cannot be written costs the next deploy a read of every file, nothing more.
  }
}

/** The remembered digest when the file is as it was then, and was not changed close to its hashing. */
export function trustedDigest(cached: CachedDigest | undefined, now: FileStamp): string | undefined {
  if (cached === undefined) return undefined;
  if (cached.size !== now.size || cached.mtimeMs !== now.mtimeMs || cached.ctimeMs !== now.ctimeMs || cached.ino !== now.ino) return undefined;
  if (Math.max(now.mtimeMs, now.ctimeMs) > cached.hashedAt - RACY_MS) return undefined;
  return cached.sha256;
}
