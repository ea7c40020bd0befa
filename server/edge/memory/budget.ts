// One budget for everything the edge remembers: BERTH_EDGE_CACHE_MB. Most of what the edge keeps
// is keyed by what a request sends (a path, a host name, a user agent), and a key can be
// kilobytes long, so counting entries bounds nothing: every cache is bounded by bytes instead.
//
// The budget is split into parts with fixed shares, each with a cap, so that a flood of one kind
// (random paths, say) cannot push out another (the hosts being served). File bodies are the
// elastic part: they may use whatever the others leave, and when the others grow, bodies are
// let go (the BlobCache is told) until the total is back within the budget.
//
// An entry's bytes are estimated once, when it is added: its strings' characters at two bytes
// each (V8 keeps request text at one byte a character, so this is the safe side) plus a fixed
// overhead per kind of entry, measured with a full collection (memory.test.ts checks each
// estimate against the heap). Nothing is counted on a request that finds what it needs.

/** Each part's share of the budget; file bodies take what the others leave (at least 23/64). */
export const SHARES = {
  /** Deployments' file lists (path → blob, type, etag), by deployment. */
  manifests: 1 / 4,
  /** Path → prepared answer, over every host; one host holds at most a quarter of it. */
  routes: 1 / 8,
  /** Whole answers (head and body in one buffer), kept ready for the next request. */
  readyAnswers: 1 / 8,
  /** Visits counted since the last write to the database, and the batch being written. */
  analytics: 1 / 16,
  /** Host labels that name a site, with its schedule, password and share links. */
  sites: 1 / 32,
  /** The hosts being served, each with its routes and cookie memos (counted in their parts). */
  servedHosts: 1 / 64,
  /** Verified pass and share cookies, over every host; one host holds at most a quarter. */
  cookies: 1 / 64,
  /** Labels that name nothing (no site, nothing published, a version that does not exist). */
  unknownLabels: 1 / 128,
  /** Host field values as sent → their label, for hosts under the sites domain. */
  hostValues: 1 / 128,
} as const;

export type PartName = keyof typeof SHARES | "files";

/** Below this, the edge could not keep even a handful of hosts and paths. */
export const MIN_BUDGET_BYTES = 8 * 1024 * 1024;

/** What a string costs: two bytes a character at most, and V8's header. */
export function stringBytes(text: string): number {
  return 16 + text.length * 2;
}

/** One part of the budget: what its caches hold, and the most they may. */
export class MemoryPart {
  used = 0;
  /**
   * Called when a charge takes this part over its cap and the caches that hold it cannot free
   * it themselves (routes and cookie memos live in many hosts: the resolver drops whole hosts).
   */
  onOver: (() => void) | undefined;

  constructor(
    readonly name: PartName,
    readonly cap: number,
    private readonly memory: EdgeMemory,
  ) {}

  charge(bytes: number): void {
    this.used += bytes;
    this.memory.used += bytes;
    if (this.used > this.cap) this.onOver?.();
    if (this.memory.used > this.memory.limit) this.memory.overflow();
  }

  release(bytes: number): void {
    this.used -= bytes;
    this.memory.used -= bytes;
  }

  get over(): boolean {
    return this.used > this.cap;
  }
}

export interface PartUsage {
  used: number;
  cap: number;
}

export class EdgeMemory {
  /** Bytes held by every part together. */
  used = 0;
  readonly files: MemoryPart;
  /** What file bodies can always have, however full the other parts are. */
  readonly filesFloor: number;
  private readonly parts = new Map<PartName, MemoryPart>();
  private evictFiles: (() => void) | undefined;

  constructor(readonly limit: number) {
    let others = 0;
    for (const [name, share] of Object.entries(SHARES) as Array<[keyof typeof SHARES, number]>) {
      const part = new MemoryPart(name, Math.floor(limit * share), this);
      others += part.cap;
      this.parts.set(name, part);
    }
    // File bodies may have it all while the rest is empty; `filesFloor` is what they always keep.
    this.files = new MemoryPart("files", limit, this);
    this.parts.set("files", this.files);
    this.filesFloor = limit - others;
  }

  part(name: keyof typeof SHARES): MemoryPart {
    return this.parts.get(name)!;
  }

  /** The file cache lets go of bodies when it is told the total is over the limit. */
  onOverflow(evict: () => void): void {
    this.evictFiles = evict;
  }

  overflow(): void {
    this.evictFiles?.();
  }

  /** Every part's bytes and cap, for GET /memory on the admin socket. */
  usage(): Record<PartName, PartUsage> & { total: PartUsage } {
    const usage = { total: { used: this.used, cap: this.limit } } as Record<PartName, PartUsage> & { total: PartUsage };
    for (const [name, part] of this.parts) usage[name] = { used: part.used, cap: part.cap };
    return usage;
  }
}
