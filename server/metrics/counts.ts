// Counters the serving path adds to: requests answered and bytes sent (the edge's HTTP/1.1 layer
// and node:http both finish answers here), and the edge's file-body cache. The edge answers tens
// of thousands of requests a second, so a request costs an addition or two into a typed array: no
// label object, no hashing, no allocation. The metrics read the totals when they are scraped
// (metrics.ts), so this module needs no metrics library.
//
// An edge worker thread (edge/workers/) counts into memory it shares with the main thread, which
// adds every thread's totals up at scrape time. Each thread writes only its own, so plain writes
// do: a scrape may read a count one request old, never a torn or lost one.
import { HOST_KINDS, type HostKind } from "../../common/metrics";

/** Indices into the counts, resolved once by whoever knows the host's kind. */
export const HOST_KIND_INDEX: Readonly<Record<HostKind, number>> = { dashboard: 0, site: 1, custom_domain: 2 };
export const STATUS_CLASSES = ["1xx", "2xx", "3xx", "4xx", "5xx"] as const;

const REQUEST_SLOTS = HOST_KINDS.length * STATUS_CLASSES.length;
const BYTE_SLOTS = HOST_KINDS.length;
const HIT = REQUEST_SLOTS + BYTE_SLOTS;
const MISS = HIT + 1;
const SLOTS = MISS + 1;

/** One thread's counts, in memory another thread may read (threads pass the buffer on). */
export class ServingCounts {
  readonly buffer: SharedArrayBuffer;
  private readonly values: Float64Array;

  /** Float64: exact up to 2^53, a petabyte sent many times over. */
  constructor(buffer = new SharedArrayBuffer(SLOTS * Float64Array.BYTES_PER_ELEMENT)) {
    this.buffer = buffer;
    this.values = new Float64Array(buffer);
  }

  /** One answered request; `kind` is a HOST_KIND_INDEX value. */
  add(kind: number, status: number, bytes: number): void {
    const statusClass = (status / 100) | 0;
    if (statusClass >= 1 && statusClass <= 5) this.values[kind * 5 + statusClass - 1]! += 1;
    this.values[REQUEST_SLOTS + kind]! += bytes;
  }

  /** A site file's body sent from the edge's memory. */
  hit(): void {
    this.values[HIT]! += 1;
  }

  /** A site file's body that had to be read from the blob store. */
  miss(): void {
    this.values[MISS]! += 1;
  }

  requests(kind: number, statusClass: number): number {
    return this.values[kind * 5 + statusClass]!;
  }

  bytes(kind: number): number {
    return this.values[REQUEST_SLOTS + kind]!;
  }

  get hits(): number {
    return this.values[HIT]!;
  }

  get misses(): number {
    return this.values[MISS]!;
  }
}
