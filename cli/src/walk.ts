// Which files of a folder a deploy sends, and their SHA-256, read as a stream so a large file
// never sits in memory. Left out: names starting with "." (dot-files and dot-folders: .git, .env,
// .DS_Store), except a .well-known folder at the top, which the web looks for there (RFC 8615);
// berth.json, the CLI's own settings; whatever .berthignore names. _redirects and _headers are
// ordinary names and go with the site. A symbolic link is followed only when it points inside
// the folder, so a link cannot publish a file from elsewhere on the machine (~/.ssh, say).
import { createHash } from "node:crypto";
import { createReadStream, existsSync, readFileSync } from "node:fs";
import { lstat, readFile, readdir, realpath, stat } from "node:fs/promises";
import path from "node:path";
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
}

export interface HashedFile extends LocalFile {
  sha256: string;
}

export interface Walked {
  files: LocalFile[];
  /** What was left out that a person may not expect (links pointing outside, sockets), one line each. */
  warnings: string[];
}

export async function walkFolder(root: string): Promise<Walked> {
  const rootStat = await stat(root).catch(() => undefined);
  if (!rootStat?.isDirectory()) throw new CliError(`${root} is not a folder`);
  const realRoot = await realpath(root);
  const ignoreFile = path.join(root, IGNORE_FILE);
  const matcher = new IgnoreMatcher(existsSync(ignoreFile) ? readFileSync(ignoreFile, "utf8") : "");
  const files: LocalFile[] = [];
  const warnings: string[] = [];
  const seenDirs = new Set<string>([realRoot]);

  async function visit(dir: string, prefix: string): Promise<void> {
    const entries = (await readdir(dir)).sort();
    for (const name of entries) {
      const relative = prefix === "" ? name : `${prefix}/${name}`;
      if (name.startsWith(".") && !(prefix === "" && name === ".well-known")) continue;
      if (prefix === "" && name === PROJECT_FILE) continue;
      const absolute = path.join(dir, name);
      let info = await lstat(absolute);
      if (info.isSymbolicLink()) {
        const target = await realpath(absolute).catch(() => undefined);
        if (target === undefined) {
          warnings.push(`skipped ${relative}: a link to nothing`);
          continue;
        }
        if (target !== realRoot && !target.startsWith(realRoot + path.sep)) {
          warnings.push(`skipped ${relative}: a link to outside the folder`);
          continue;
        }
        info = await stat(absolute);
      }
      if (info.isDirectory()) {
        if (matcher.matches(relative, true)) continue;
        const real = await realpath(absolute);
        // A link back up the tree would walk for ever.
        if (seenDirs.has(real)) continue;
        seenDirs.add(real);
        await visit(absolute, relative);
      } else if (info.isFile()) {
        if (!matcher.matches(relative, false)) files.push({ path: relative, absolute, size: info.size });
      } else {
        warnings.push(`skipped ${relative}: not a regular file`);
      }
    }
  }

  await visit(root, "");
  return { files, warnings };
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
/** Files read at once: enough to keep the disk and the thread pool busy while the main thread hashes. */
const HASH_CONCURRENCY = 16;

/** SHA-256 and byte count of a small file, read in one go. */
async function hashSmallFile(file: string): Promise<{ sha256: string; size: number }> {
  const data = await readFile(file).catch((error: Error) => {
    throw new CliError(`could not read ${file}: ${error.message}`);
  });
  return { sha256: createHash("sha256").update(data).digest("hex"), size: data.length };
}

/** Every file with its digest; `onHashed` after each, for progress. */
export async function hashFiles(files: LocalFile[], onHashed: (file: HashedFile) => void = () => undefined): Promise<HashedFile[]> {
  return mapLimit(files, HASH_CONCURRENCY, async (file) => {
    // The size the walk saw picks the way; the digest and size are those of the bytes read.
    const { sha256, size } = await (file.size <= READ_WHOLE_BYTES ? hashSmallFile(file.absolute) : hashFile(file.absolute));
    const hashed = { ...file, sha256, size };
    onHashed(hashed);
    return hashed;
  });
}
