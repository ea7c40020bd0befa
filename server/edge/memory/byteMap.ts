// A Map bounded by bytes: each entry's size is estimated once when it is set, counted here and in
// its part of the edge's budget, and the oldest entries go first when the map is over its cap.
// It is a Map, so reading it (get, has) is the native Map's own code: the edge reads these on
// every request, and only adding and removing pay for the accounting.
import type { MemoryPart } from "./budget";

export class ByteMap<K, V> extends Map<K, V> {
  /** The estimated bytes of the entries held. */
  bytes = 0;
  private closed = false;

  /** The most this map holds: its part's cap unless given a smaller one. */
  readonly cap: number;
  private readonly onRemove: ((key: K, value: V) => void) | undefined;

  /**
   * `sizeOf` must give the same number for an entry whenever it is asked (it is asked again when
   * the entry goes); `onRemove` hears of every entry that leaves, however it leaves.
   */
  constructor(
    private readonly part: MemoryPart,
    private readonly sizeOf: (key: K, value: V) => number,
    options: { cap?: number; onRemove?: (key: K, value: V) => void } = {},
  ) {
    super();
    this.cap = options.cap ?? part.cap;
    this.onRemove = options.onRemove;
  }

  /** Adds or replaces; an entry larger than the cap, or set after close(), is not kept. */
  override set(key: K, value: V): this {
    if (this.closed) return this;
    if (super.has(key)) this.delete(key);
    const bytes = this.sizeOf(key, value);
    if (bytes > this.cap) return this;
    super.set(key, value);
    this.bytes += bytes;
    // Oldest first: a Map iterates in insertion order.
    while (this.bytes > this.cap) this.delete(super.keys().next().value as K);
    // Last, since going over the part's cap may empty this very map (a host dropped whole).
    this.part.charge(bytes);
    return this;
  }

  override delete(key: K): boolean {
    if (!super.has(key)) return false;
    const value = super.get(key) as V;
    super.delete(key);
    const bytes = this.sizeOf(key, value);
    this.bytes -= bytes;
    this.part.release(bytes);
    this.onRemove?.(key, value);
    return true;
  }

  override clear(): void {
    const removed = this.onRemove ? [...super.entries()] : [];
    super.clear();
    this.part.release(this.bytes);
    this.bytes = 0;
    for (const [key, value] of removed) this.onRemove!(key, value);
  }

  /** Drops the oldest entry; false when there is none. */
  dropOldest(): boolean {
    const oldest = super.keys().next();
    return !oldest.done && this.delete(oldest.value);
  }

  /** Empties the map for good: whoever still holds it may set, and nothing is kept or counted. */
  close(): void {
    this.closed = true;
    this.clear();
  }
}
