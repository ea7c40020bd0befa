// What the process holds in memory, measured after a full garbage collection, so that what is
// reported is what is kept, not what is waiting to be collected. The admin socket answers it
// (GET /memory), for an operator's `curl --unix-socket` and for the tests that flood the edge and
// check that its caches stay within BERTH_EDGE_CACHE_MB.
import v8 from "node:v8";
import vm from "node:vm";

export interface MemoryReport {
  /** V8's heap after the collection: every string and object the caches keep. */
  heapUsed: number;
  heapTotal: number;
  /** The most V8 will grow the heap to (--max-old-space-size). */
  heapLimit: number;
  /** Memory outside the heap that V8 knows of: Buffers, PGlite's WebAssembly memory. */
  external: number;
  arrayBuffers: number;
  rss: number;
  /** The edge's own accounting, by part (server/edge/memory); absent without the edge role. */
  edge?: unknown;
}

/** V8's `gc()`; `flavor: "last-resort"` also compacts the heap and gives its free pages back (Node 22+). */
type Collect = (options?: { type: "major"; execution: "sync"; flavor?: "regular" | "last-resort" }) => void;

let collect: Collect | undefined;

/**
 * V8's `gc()` for this thread's isolate, found once. It exists only with --expose-gc; setting the
 * flag now and asking a new context for it gives the same function without starting the process
 * differently.
 */
function fullCollection(): Collect {
  if (!collect) {
    v8.setFlagsFromString("--expose-gc");
    collect = vm.runInNewContext("gc") as Collect;
  }
  return collect;
}

/**
 * A full collection that also moves live objects together and returns the emptied pages to the
 * kernel. An ordinary collection frees objects but keeps the heap at the size a busy moment grew
 * it to: Berth on Node 24 idled with 35–40 MB of empty heap pages resident. Takes tens of
 * milliseconds on this thread; Node 20's V8 ignores the flavor and runs an ordinary collection.
 */
export function compactHeap(): void {
  fullCollection()({ type: "major", execution: "sync", flavor: "last-resort" });
}

export function memoryAfterCollection(edge?: () => unknown): MemoryReport {
  const gc = fullCollection();
  // Twice: the first run may leave objects that a finalizer or weak reference let go of.
  gc();
  gc();
  const usage = process.memoryUsage();
  return {
    heapUsed: usage.heapUsed,
    heapTotal: usage.heapTotal,
    heapLimit: v8.getHeapStatistics().heap_size_limit,
    external: usage.external,
    arrayBuffers: usage.arrayBuffers,
    rss: usage.rss,
    ...(edge ? { edge: edge() } : {}),
  };
}
