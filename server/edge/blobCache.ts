// Small blobs kept in memory, so that after warm-up a request for them touches neither the disk
// nor the bucket. Bounded by bytes: the edge's budget (BERTH_EDGE_CACHE_MB, memory/budget.ts),
// of which file bodies get whatever the edge's other caches do not use; when those grow, bodies
// go until the total is back within the budget. Eviction is "second chance": a hit only sets a
// flag (cheap on the hot path), and eviction spares a flagged entry once.
// Blobs never change (they are named by their hash), so nothing here is ever stale.
import type { BlobStore } from "../storage/blobStore";
import type { EdgeMemory } from "./memory/budget";
import { seal, unseal } from "./native/sealedBodies";
import { ServingCounts } from "../metrics/counts";

/** Files up to this size are served from memory; bigger ones are streamed from the blob store. */
export const MAX_CACHED_FILE_BYTES = 1024 * 1024;
/**
 * Up to this size a blob the store keeps as a local file is read on the serving thread when it is
 * first asked for (BlobStore.readSync), as nginx's workers read theirs. Through the thread pool, a
 * site's first visitors after a start waited on hundreds of small reads queued behind each other:
 * a 1,000-file site answered at half speed, with a p99 of 30–90 ms, for its first second.
 */
export const READ_NOW_MAX_BYTES = 64 * 1024;

export class BlobCache {
  private readonly entries = new Map<string, { buffer: Buffer; hot: boolean }>();
  private readonly loading = new Map<string, Promise<Buffer>>();
  private bytes = 0;

  constructor(
    private readonly store: BlobStore,
    private readonly memory: EdgeMemory,
    /** Larger blobs are always streamed from the store. */
    readonly maxEntryBytes: number,
    /** Bodies answered from here or not, counted by the edge's answers (respond.ts) for the metrics. */
    readonly counts: ServingCounts = new ServingCounts(),
  ) {
    memory.onOverflow(() => this.evict());
  }

  /** Whether a blob of this size is served from memory: what bodies can always have holds it. */
  fits(size: number): boolean {
    return size <= this.maxEntryBytes && size <= this.memory.filesFloor;
  }

  /** The cached bytes, if any; marks them as recently used. */
  peek(sha256: string): Buffer | undefined {
    const hit = this.entries.get(sha256);
    if (!hit) return undefined;
    hit.hot = true;
    return hit.buffer;
  }

  /**
   * The blob's bytes without waiting: from memory, or read on this thread when it is small and the
   * store has it as a local file. Undefined otherwise, and when the read fails: load() then reads
   * it, or reports why it cannot.
   */
  readNow(sha256: string, size: number): Buffer | undefined {
    const hit = this.peek(sha256);
    if (hit || size > READ_NOW_MAX_BYTES || !this.store.readSync || !this.fits(size) || this.loading.has(sha256)) return hit;
    let bytes: Buffer;
    try {
      bytes = this.store.readSync(sha256);
    } catch {
      return undefined;
    }
    return this.keep(sha256, bytes);
  }

  /** The blob's bytes, read from the store once however many requests ask at the same time. */
  async load(sha256: string): Promise<Buffer> {
    const hit = this.peek(sha256);
    if (hit) return hit;
    let pending = this.loading.get(sha256);
    if (!pending) {
      pending = this.read(sha256).finally(() => this.loading.delete(sha256));
      this.loading.set(sha256, pending);
    }
    return pending;
  }

  get size(): number {
    return this.bytes;
  }

  private async read(sha256: string): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of await this.store.get(sha256)) chunks.push(chunk as Buffer);
    return this.keep(sha256, Buffer.concat(chunks));
  }

  private keep(sha256: string, bytes: Buffer): Buffer {
    // Big enough bodies move into a sealed memfd, so the edge can sendfile them (sealedBodies.ts).
    const buffer = seal(bytes);
    this.entries.set(sha256, { buffer, hot: false });
    this.bytes += buffer.length;
    // Over the budget: evict() runs from here, told by the budget.
    this.memory.files.charge(buffer.length);
    return buffer;
  }

  /** Lets bodies go until the edge's caches together are within the budget again. */
  private evict(): void {
    const { memory } = this;
    // Each entry is looked at most twice: once to clear its flag, once to go.
    let budget = this.entries.size * 2;
    for (const [key, entry] of this.entries) {
      if (memory.used <= memory.limit || budget-- <= 0) return;
      this.entries.delete(key);
      if (entry.hot) {
        entry.hot = false;
        this.entries.set(key, entry);
      } else {
        this.bytes -= entry.buffer.length;
        memory.files.release(entry.buffer.length);
        unseal(entry.buffer);
      }
    }
  }
}
