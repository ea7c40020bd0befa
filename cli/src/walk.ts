// Which files of a folder a deploy sends, and their SHA-256, read as a stream so a large file
// never sits in memory. Left out: names starting with "." (dot-files and dot-folders: .git, .env,
// .DS_Store), except a .well-known folder at the top (isLeftOut, the rule the dashboard's folder
// drop applies too); berth.json, the CLI's own settings; whatever .berthignore names. _redirects
// and _headers are ordinary names and go with the site. A symbolic link is followed only when it
// points inside the folder, so a link cannot publish a file from elsewhere on the machine (~/.ssh).
import { createHash } from "node:crypto";
import { createReadStream, existsSync, lstatSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import type { Stats } from "node:fs";
import path from "node:path";
import { isEmptyFolder, isLeftOut } from "../../common/folderDeploy";
import { trustedDigest, type CachedDigest, type FileStamp } from "./digestCache";
import { CliError } from "./errors";
import { IgnoreMatcher } from "./ignore";
import { PROJECT_FILE } from "./settings";

export const IGNORE_FILE = ".berthignore";

export interface LocalFile {
  /** The path inside the site, "/"-separated: "css/site.css". */
  path: string;
  /** Where it is on disk. */
  absolute: string;
  size: number;
  /** What the walk saw, to tell an unchanged file by (digestCache.ts). */
  stamp?: FileStamp;
}

export interface HashedFile extends LocalFile {
  sha256: string;
  /** When its bytes were read for the digest (ms since the epoch); from the cache when it came from there. */
  hashedAt?: number;
}

export interface Walked {
  /** The folder's real path (links resolved). */
  root: string;
  files: LocalFile[];
  /** Folders that hold nothing but left-out names (isEmptyFolder, as the dashboard's drop judges), in name order: the deploy keeps them. */
  folders: string[];
  /** What was left out that a person may not expect (links pointing outside, sockets), one line each. */
  warnings: string[];
}

/**
 * The walk is synchronous on purpose: a thousand stat calls take a few milliseconds in a row,
 * where the same calls through the thread pool, each a promise, took ten times as long (most of
 * a redeploy's walk). Nothing else the CLI does waits on it but the site lookup's answer.
 */
export async function walkFolder(root: string): Promise<Walked> {
  const rootStat = statOrUndefined(root);
  if (!rootStat?.isDirectory()) throw new CliError(`${root} is not a folder`);
  const realRoot = realpathSync(root);
  const ignoreFile = path.join(root, IGNORE_FILE);
  const matcher = new IgnoreMatcher(existsSync(ignoreFile) ? readFileSync(ignoreFile, "utf8") : "");
  const files: LocalFile[] = [];
  const folders: string[] = [];
  const warnings: string[] = [];
  const seenDirs = new Set<string>([realRoot]);

  /** The entry's own information, links followed when they stay inside the folder; a string says why it is skipped. */
  function inspect(absolute: string, relative: string): Stats | string {
    const info = lstatSync(absolute);
    if (!info.isSymbolicLink()) return info;
    const target = realpathOrUndefined(absolute);
    if (target === undefined) return `skipped ${relative}: a link to nothing`;
    if (target !== realRoot && !target.startsWith(realRoot + path.sep)) return `skipped ${relative}: a link to outside the folder`;
    return statSync(absolute);
  }

  function visit(dir: string, prefix: string): void {
    // In name order, so the result and its warnings are the same every time.
    const all = readdirSync(dir).sort();
    if (prefix !== "" && isEmptyFolder(all)) folders.push(prefix);
    const names = all.filter((name) => {
      if (isLeftOut(name, prefix === "")) return false;
      return !(prefix === "" && name === PROJECT_FILE);
    });
    for (const name of names) {
      const relative = prefix === "" ? name : `${prefix}/${name}`;
      const absolute = path.join(dir, name);
      const info = inspect(absolute, relative);
      if (typeof info === "string") {
        warnings.push(info);
        continue;
      }
      if (info.isDirectory()) {
        if (matcher.matches(relative, true)) continue;
        const real = realpathSync(absolute);
        // A link back up the tree would walk for ever.
        if (seenDirs.has(real)) continue;
        seenDirs.add(real);
        visit(absolute, relative);
      } else if (info.isFile()) {
        if (!matcher.matches(relative, false)) {
          files.push({
            path: relative,
            absolute,
            size: info.size,
            stamp: { size: info.size, mtimeMs: info.mtimeMs, ctimeMs: info.ctimeMs, ino: info.ino },
          });
        }
      } else {
        warnings.push(`skipped ${relative}: not a regular file`);
      }
    }
  }

  visit(root, "");
  return { root: realRoot, files, folders, warnings };
}

function statOrUndefined(file: string): Stats | undefined {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}

function realpathOrUndefined(file: string): string | undefined {
  try {
    return realpathSync(file);
  } catch {
    return undefined;
  }
}

/** SHA-256 and byte count of one file, read as a stream. */
export function hashFile(file: string): Promise<{ sha256: string; size: number }> {
  return new Promise((resolve, reject) => {
    const hash = createHash("sha256");
    let size = 0;
    createReadStream(file)
      .on("data", (chunk: Buffer | string) => {
        hash.update(chunk);
        size += chunk.length;
      })
      .on("error", (error) => reject(new CliError(`could not read ${file}: ${error.message}`)))
      .on("end", () => resolve({ sha256: hash.digest("hex"), size }));
  });
}

/** Runs `task` over `items`, at most `limit` at a time, keeping their order in the results. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const index = next++;
      try {
        results[index] = await task(items[index]!, index);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** Files up to this size are read whole: one read instead of a stream's events, which dominate for small files. */
const READ_WHOLE_BYTES = 1024 * 1024;
/** Large files read at once: enough to keep the disk and the thread pool busy while the main thread hashes. */
const HASH_CONCURRENCY = 16;

/**
 * SHA-256 and byte count of a small file, read in one go and synchronously: from the page cache
 * that is a copy, which a promise through the thread pool would only make slower.
 */
function hashSmallFile(file: string): { sha256: string; size: number } {
  let data: Buffer;
  try {
    data = readFileSync(file);
  } catch (error) {
    throw new CliError(`could not read ${file}: ${(error as Error).message}`);
  }
  return { sha256: createHash("sha256").update(data).digest("hex"), size: data.length };
}

/**
 * Every file with its digest; `onHashed` after each, for progress. A file `cache` vouches for
 * (digestCache.ts: unchanged since it was hashed) is not read.
 */
export async function hashFiles(
  files: LocalFile[],
  onHashed: (file: HashedFile) => void = () => undefined,
  cache: ReadonlyMap<string, CachedDigest> = new Map(),
): Promise<HashedFile[]> {
  const results = new Array<HashedFile>(files.length);
  const toRead: number[] = [];
  for (const [index, file] of files.entries()) {
    const cached = file.stamp && cache.get(file.path);
    const sha256 = file.stamp && trustedDigest(cached, file.stamp);
    if (sha256 === undefined || !cached) toRead.push(index);
    else results[index] = { ...file, sha256, hashedAt: cached.hashedAt };
  }
  for (const hashed of results) if (hashed) onHashed(hashed);
  await mapLimit(toRead, HASH_CONCURRENCY, async (index) => {
    const file = files[index]!;
    const hashedAt = Date.now();
    // The size the walk saw picks the way; the digest and size are those of the bytes read.
    const { sha256, size } = file.size <= READ_WHOLE_BYTES ? hashSmallFile(file.absolute) : await hashFile(file.absolute);
    const hashed: HashedFile = { ...file, sha256, size, hashedAt };
    results[index] = hashed;
    onHashed(hashed);
  });
  return results;
}
