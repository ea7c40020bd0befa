// Gives memory back when the server is at rest. Two allocators keep what a burst made them grow to:
// - The C library's: a server that took one daily backup (the embedded database's copy passes
//   through memory) stayed at 416 MB resident at idle instead of 267 MB, for the rest of its life.
//   The calls come from the edge's native addon (kernelSend.c); without it or off glibc, nothing
//   changes.
// - V8's: the heap keeps the pages start-up (migrations, the first queries) grew it to, and the
//   bytecode of code that ran once; an ordinary collection gives back neither. A compacting one
//   (memoryReport.ts) took Berth on PostgreSQL, Node 24, from 171 to 113 MB resident at rest.
import { performance } from "node:perf_hooks";
import { compactHeap } from "./memoryReport";

/** The C library's allocator, for the whole process (kernelSend.c says why). */
export interface NativeMalloc {
  /** A fixed mmap threshold and two arenas; false when the C library is not glibc. */
  tuneMalloc: () => boolean;
  /** Returns every free page to the kernel; true when some were. */
  trimMalloc: () => boolean;
}

/** Often enough that a burst's pages go back within a minute; a trim costs well under a millisecond. */
const CHECK_EVERY_MS = 30_000;
/**
 * At rest: the thread was busy less than this share of the last half minute. A compaction stops the
 * thread for about 85 ms, which a server serving requests should not pay for memory. Berth on the
 * embedded database is busy 2–4 % at rest (the job queue's polls run its queries on this thread).
 */
const IDLE_UTILIZATION = 0.05;
/** Compact again at rest only once the heap has grown this much since the last compaction. */
const REGROWTH_BYTES = 8 * 2 ** 20;

export interface LeanOptions {
  native: NativeMalloc | undefined;
  /** The compaction, replaceable in tests. */
  compact?: () => void;
  everyMs?: number;
}

/**
 * Tunes the C allocator now; every half minute trims it, and compacts V8's heap when the thread was at
 * rest and the heap has grown since it was last compacted. Returns what stops it.
 */
export function keepMemoryLean({ native, compact = compactHeap, everyMs = CHECK_EVERY_MS }: LeanOptions): () => void {
  const tuned = native?.tuneMalloc() ?? false;
  let window = performance.eventLoopUtilization();
  let compactedAt = 0;
  const timer = setInterval(() => {
    const busy = performance.eventLoopUtilization(window).utilization;
    window = performance.eventLoopUtilization();
    const heapTotal = process.memoryUsage().heapTotal;
    if (busy < IDLE_UTILIZATION && heapTotal > compactedAt + REGROWTH_BYTES) {
      compact();
      compactedAt = process.memoryUsage().heapTotal;
    }
    if (tuned) native?.trimMalloc();
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
