// Each file's SHA-256, worked out in the browser with WebCrypto, so the server can say which
// files it already holds before any byte is sent. crypto.subtle.digest takes a file only whole,
// in memory, so the files read at once are bounded both in number and in bytes: memory stays
// within HASH_BUDGET_BYTES (or one file, when a single file is larger) however big the folder.
import { FOLDER_TEXT } from "../../../../common/uploads";
import { ApiError } from "../../../lib/api";
import { FolderProblem, type FolderFile } from "./readFolder";

export interface HashedFile extends FolderFile {
  sha256: string;
  size: number;
}

export interface HashProgress {
  files: number;
  bytes: number;
}

/** Files read and hashed at once: enough to keep the disk busy while the thread hashes. */
export const HASH_CONCURRENCY = 4;
/** Bytes of files held in memory at once; a larger file waits until it can be read alone. */
export const HASH_BUDGET_BYTES = 64 * 1024 * 1024;

/** Digests already worked out, by File: a retry after a failed upload does not read the folder again. */
const known = new WeakMap<File, string>();

/** Whether this page can hash at all: WebCrypto exists only in a secure context (HTTPS, localhost). */
export function canHash(): boolean {
  return typeof crypto !== "undefined" && crypto.subtle !== undefined;
}

export async function hashFiles(
  files: readonly FolderFile[],
  options: { signal?: AbortSignal; onProgress?: (done: HashProgress) => void } = {},
): Promise<HashedFile[]> {
  if (!canHash()) throw new FolderProblem(FOLDER_TEXT.insecureTitle, FOLDER_TEXT.insecureDescription);
  const done: HashProgress = { files: 0, bytes: 0 };
  const results = await mapWithinBudget(
    files,
    { concurrency: HASH_CONCURRENCY, budget: HASH_BUDGET_BYTES, weight: (f) => f.file.size, signal: options.signal },
    async (entry) => {
      const sha256 = await digestOf(entry);
      done.files += 1;
      done.bytes += entry.file.size;
      options.onProgress?.({ ...done });
      return { ...entry, sha256, size: entry.file.size };
    },
  );
  return results;
}

async function digestOf({ path, file }: FolderFile): Promise<string> {
  const cached = known.get(file);
  if (cached) return cached;
  // A file moved, deleted or changed since it was chosen cannot be read any more (Chromium: NotReadableError).
  const bytes = await file.arrayBuffer().catch(() => {
    throw new FolderProblem(FOLDER_TEXT.unreadableTitle, FOLDER_TEXT.unreadableDescription(path));
  });
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  const hex = Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
  known.set(file, hex);
  return hex;
}

/**
 * Runs `task` over `items`, keeping their order in the results, with at most `concurrency` at a
 * time and their weights summing to at most `budget` (an item heavier than the budget runs
 * alone). Stops starting new ones at the first failure, or when `signal` aborts.
 */
export function mapWithinBudget<T, R>(
  items: readonly T[],
  limits: { concurrency: number; budget: number; weight: (item: T) => number; signal?: AbortSignal | undefined },
  task: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let running = 0;
  let load = 0;
  let settled = false;
  return new Promise<R[]>((resolve, reject) => {
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      reject(error instanceof Error ? error : new Error(String(error)));
    };
    const pump = () => {
      if (settled) return;
      if (limits.signal?.aborted) return fail(new ApiError(0, "aborted", FOLDER_TEXT.cancelled));
      if (next === items.length && running === 0) {
        settled = true;
        return resolve(results);
      }
      while (next < items.length && running < limits.concurrency) {
        const weight = limits.weight(items[next]!);
        if (running > 0 && load + weight > limits.budget) break;
        const index = next++;
        running += 1;
        load += weight;
        task(items[index]!).then((result) => {
          results[index] = result;
          running -= 1;
          load -= weight;
          pump();
        }, fail);
      }
    };
    pump();
  });
}
