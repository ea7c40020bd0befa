// What the main thread and its edge workers say to each other (pool.ts, thread.ts). Everything
// crosses by structured clone; a connection crosses as a duplicated descriptor number, which the
// receiving thread wraps in a socket of its own (threads share the process's descriptor table).
import type { MessagePort } from "node:worker_threads";
import type { Env } from "../../env";

/** The events that drop or reload what an edge remembers (resolver.ts, domainRegistry.ts). */
export const EDGE_EVENTS = ["site", "domain", "variants", "resync"] as const;
export type EdgeEvent = (typeof EDGE_EVENTS)[number];

export interface EventMessage {
  name: EdgeEvent;
  payload: unknown;
}

export interface WorkerSetup {
  env: Env;
  secret: string;
  /** This worker's number (1…), for its log lines. */
  index: number;
  /** How many threads serve sites (the workers and the main thread): each takes its part of the descriptors. */
  threads: number;
  /** Its share of BERTH_EDGE_CACHE_MB. */
  cacheBytes: number;
  analytics: boolean;
  /** [0]: events the main thread has posted so far; read before every request (thread.ts). */
  posted: SharedArrayBuffer;
  /** posted[0] when this worker's event port was made: the events it will receive start after. */
  postedBefore: number;
  /** The events, on a port of their own so a request can drain them synchronously. */
  events: MessagePort;
  /** Where it counts its answers for the metrics (metrics/counts.ts), kept by the main thread across restarts. */
  counts: SharedArrayBuffer;
  /** [0]: the id of the last connection it took, stored before it opens the descriptor (pool.ts). */
  taken: SharedArrayBuffer;
  /** Where it lists its sealed bodies' descriptors, which the main thread closes when it dies. */
  sealed: SharedArrayBuffer;
  /** Tests only (pool.crashWorker): throw instead of starting. */
  crashAtStart: boolean;
}

/** Why a query failed, as much as the edge's callers read. */
export interface QueryError {
  message: string;
  code?: string | undefined;
}

export type ToWorker =
  | { type: "connection"; id: number; fd: number; bytes: Uint8Array; keepAliveMs: number; headersTimeoutMs: number; draining: boolean }
  | { type: "result"; id: number; result?: unknown; error?: QueryError }
  | { type: "report"; id: number }
  | { type: "drain" }
  | { type: "close"; force: boolean }
  /** Tests only (pool.crashWorker): throw, after blocking until hold[0] is set when given. */
  | { type: "crash"; hold: SharedArrayBuffer | undefined };

export interface WorkerReport {
  index: number;
  threadId: number;
  /** Connections received from the main thread since the worker started. */
  connections: number;
  /** Requests its HTTP/1.1 layer answered. */
  requests: number;
  /** Connections open now. */
  open: number;
  /** Cached bodies sealed in a memfd each (native/sealedBodies.ts), so holding a descriptor each. */
  sealed: number;
  /** How they read and wrote (http1/connection.ts connectionPaths). */
  paths: { sharedReads: number; streamReads: number; kernelSends: number };
}

export type QueryMethod = "all" | "execute";

export type FromWorker =
  | { type: "ready" }
  | { type: "query"; id: number; sql: string; params: unknown[]; method: QueryMethod }
  | { type: "handBack"; id: number; fd: number; bytes: Uint8Array }
  | { type: "gone"; id: number }
  | { type: "log"; level: LogLevel; fields: Record<string, unknown> | undefined; message: string | undefined }
  | { type: "shareLinkUsedUp"; siteId: string; linkId: string }
  | { type: "report"; id: number; report: WorkerReport }
  | { type: "closed" };

export type LogLevel = "fatal" | "error" | "warn" | "info" | "debug" | "trace";
