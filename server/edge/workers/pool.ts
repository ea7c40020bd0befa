// The main thread's side of the edge workers (BERTH_EDGE_WORKERS ≥ 2). The main thread stays the
// only listener on PORT: a connection's first request may be for the dashboard, and only this
// thread has Fastify, better-auth and the database. Its HTTP/1.1 layer reads the first request
// head; a site host's connection is moved to a worker (`take`): its descriptor duplicated (the
// addon's dupFd), the copy and the unanswered bytes posted to the worker with the fewest open
// connections, and this thread's own descriptor closed, which leaves the connection open.
// A worker gives a connection back the same way (`handBack`) for a request its HTTP/1.1 layer
// does not take; this thread serves it from then on.
//
// The pool also runs the workers' statements on the database (dbProxy.ts), forwards the events
// that drop their caches (local ones and those relayed from other nodes alike), writes their log
// lines, passes on share-link notices, restarts a worker that died, and drains them on close.
//
// A worker that dies (a bug throws, it runs out of memory) loses the connections it held; new
// ones go to the others meanwhile, and it is started again after a delay that doubles with each
// death in a row. Connections posted to it that it had not taken yet are not lost: nothing was
// read from them but what this thread kept, so they go to a live worker (or this thread). The
// sealed bodies its cache held are closed here (native/sealedBodies.ts).
import { closeSync } from "node:fs";
import { createRequire } from "node:module";
import net, { type Socket } from "node:net";
import path from "node:path";
import v8 from "node:v8";
import { pathToFileURL } from "node:url";
import { MessageChannel, Worker, type MessagePort } from "node:worker_threads";
import type { FastifyBaseLogger } from "fastify";
import type { Env } from "../../env";
import type { Db } from "../../db/client";
import type { BerthEvents } from "../../events";
import { dupFd } from "../native/kernelSend";
import { closeSealedLedger, newSealedLedger } from "../native/sealedBodies";
import { plainTcpHandle } from "../http1/socketHandle";
import { MIN_BUDGET_BYTES } from "../memory/budget";
import { runProxiedQuery } from "./dbProxy";
import { ServingCounts } from "../../metrics/counts";
import { EDGE_EVENTS, type FromWorker, type QueryError, type ToWorker, type WorkerReport, type WorkerSetup } from "./protocol";

/**
 * Each worker's young generation, in MB per semi-space. V8 applies the process's
 * --max-semi-space-size to every isolate, above a Worker's own resourceLimits, and Node 24 lets
 * it grow to 64 MB unless told: each worker would keep that much empty young generation resident.
 * The pool sets it again so that the workers' size holds whatever flags the process runs with.
 * At 8 (as the server's own flag, scripts/server-flags.mjs) the edge bench's requests per
 * CPU-second with two workers met their goal in every run; at 2 they missed in most, for
 * 10-25 MB less at peak (bench/README.md).
 */
export const WORKER_SEMI_SPACE_MB = 8;
/**
 * How far V8 lets a heap grow past what its last full collection kept, in percent. Its default
 * (up to 300 % for a heap this small) let a worker's old generation fill with 30–40 MB of dead
 * objects, those that lived through two collections of the small young generation before their
 * request ended, and the edge bench's peak with two workers varied 307–412 MiB between starts;
 * at 20 % a worker's old generation stayed at 16–18 MB and the peak at 303–312 MiB, serving as fast.
 */
export const WORKER_HEAP_GROWING_PERCENT = 20;

/** How long a worker may take to be ready (tests start them from TypeScript sources). */
const START_TIMEOUT_MS = 60_000;
/** A worker that died is started again after this, doubled for each death in a row… */
const RESTART_FIRST_DELAY_MS = 1000;
/** …up to this, so one that dies at start cannot spin. */
const RESTART_MAX_DELAY_MS = 60_000;
/** A worker that served this long before it died starts the count of deaths in a row again. */
const STABLE_AFTER_MS = 60_000;

/** How long to wait before starting again a worker that died `deathsInARow` times before (0: first). */
export function restartDelay(deathsInARow: number): number {
  return Math.min(RESTART_MAX_DELAY_MS, RESTART_FIRST_DELAY_MS * 2 ** Math.min(deathsInARow, 16));
}

export interface PoolOptions {
  count: number;
  env: Env;
  secret: string;
  db: Db;
  events: BerthEvents;
  log: FastifyBaseLogger;
  analytics: boolean;
  /** A worker's share-link open spent the link's last view: the owner's notice. */
  onShareLinkUsedUp: (used: { siteId: string; linkId: string }) => void;
  /**
   * Start the threads at the first site connection rather than now, so a server nobody visits
   * holds none of their memory (about 35 MB each). That connection, and any that arrive before
   * the threads are ready, are served by the main thread.
   */
  onDemand?: boolean;
}

/** The timeouts of the server a connection came from, which its new owner enforces. */
export interface ConnectionTimeouts {
  keepAliveMs: number;
  headersTimeoutMs: number;
}

/** Called for a connection a worker gave back: `release` ends its count against its address. */
export type Adopt = (socket: Socket, bytes: Buffer, release: () => void) => void;

interface Moved {
  worker: EdgeWorker;
  /** The copy of its descriptor posted to the worker: this thread's to close until the worker took it. */
  fd: number;
  release: () => void;
}

/** What a connection was posted with, kept until its worker takes it: enough to post it again. */
interface Posted {
  bytes: Uint8Array;
  timeouts: ConnectionTimeouts;
}

interface EdgeWorker {
  index: number;
  thread: Worker;
  ready: boolean;
  /** When it became ready, for the restart's delay. */
  readySince?: number;
  /** Until its thread exits: it may still be starting, and waits for its queries' results. */
  alive: boolean;
  /** Connections given to it and not yet gone or given back. */
  open: number;
  /**
   * Connections posted to it that it may not have taken yet, by id in the order posted; pruned
   * against `taken` at each post, so it holds little more than what is on its way.
   */
  unconfirmed: Map<number, Posted>;
  events: MessagePort;
  /**
   * [0]: the id of the last connection it took (as an Int32), stored before it opens the
   * descriptor. It takes them in the order they were posted, so any id above was never opened.
   */
  taken: Int32Array;
  /** The descriptors of the bodies its cache sealed (native/sealedBodies.ts), closed at its exit. */
  sealed: Int32Array;
  /** What killed it, from its 'error' event, for the one line its exit logs. */
  failure?: Error;
  closed?: () => void;
}

/** Each edge thread's part of BERTH_EDGE_CACHE_MB: an equal share, never below the budget's minimum. */
export function threadBudget(totalBytes: number, workers: number): number {
  return Math.max(MIN_BUDGET_BYTES, Math.floor(totalBytes / workers));
}

/** Why edge workers cannot run here, or undefined when they can. */
export function workersUnavailable(): string | undefined {
  if (process.platform !== "linux") return "edge workers need Linux";
  if (dupFd === undefined) return "edge workers need the native addon (server/edge/native, built with the machine's C compiler)";
  return undefined;
}

/**
 * Starts `count` workers and waits until each is ready; undefined (after one log line saying why)
 * when they cannot run here or one failed to start: the main thread then serves sites itself.
 */
export async function startEdgeWorkers(options: PoolOptions): Promise<EdgeWorkerPool | undefined> {
  const why = workersUnavailable();
  if (why !== undefined) {
    options.log.warn(`BERTH_EDGE_WORKERS=${options.count}: ${why}; sites are served from the main thread`);
    return undefined;
  }
  const pool = new EdgeWorkerPool(options);
  if (options.onDemand) {
    pool.listen();
    return pool;
  }
  try {
    await pool.start();
    return pool;
  } catch (error) {
    options.log.warn(
      { err: error },
      `BERTH_EDGE_WORKERS=${options.count}: the workers did not start (${(error as Error).message}); sites are served from the main thread`,
    );
    await pool.close(true);
    return undefined;
  }
}

export class EdgeWorkerPool {
  /** Set by the HTTP server: serves a connection a worker gave back. */
  adopt: Adopt | undefined;
  readonly count: number;
  private readonly workers: EdgeWorker[] = [];
  private readonly moved = new Map<number, Moved>();
  private lastId = 0;
  private next = 0;
  private closing = false;
  private draining = false;
  /** With onDemand: whether the threads were asked for yet (they may still be starting). */
  private launched = false;
  private listening = false;
  private readonly posted = new Int32Array(new SharedArrayBuffer(4));
  private readonly reports = new Map<number, { worker: EdgeWorker; answer: (report: WorkerReport | undefined) => void }>();
  /** Deaths in a row of each worker, by its number, for the restart's delay. */
  private readonly deaths = new Map<number, number>();
  private readonly restarts = new Set<NodeJS.Timeout>();
  /** Tests only (crashWorker): how many more starts of each worker throw. */
  private readonly failingStarts = new Map<number, number>();
  private readonly forwarders: Array<[string, (payload?: unknown) => void]> = [];
  /** Each worker's counts for the metrics, by its number: a restarted worker counts on where it stopped. */
  private readonly served = new Map<number, ServingCounts>();

  constructor(private readonly options: PoolOptions) {
    this.count = options.count;
  }

  /** Forwards the edge's events to the threads, from before the first one starts. */
  listen(): void {
    if (this.listening) return;
    this.listening = true;
    for (const name of EDGE_EVENTS) {
      const forward = (payload?: unknown) => this.forward(name, payload);
      this.options.events.on(name, forward);
      this.forwarders.push([name, forward]);
    }
  }

  async start(): Promise<void> {
    this.listen();
    this.launched = true;
    await Promise.all(Array.from({ length: this.count }, (_, i) => this.spawn(i + 1)));
  }

  /** onDemand's start: once, in the background; a failure leaves sites on the main thread for good. */
  private launch(): void {
    this.launched = true;
    this.start().catch(async (error: unknown) => {
      this.options.log.warn(
        { err: error },
        `BERTH_EDGE_WORKERS=${this.count}: the workers did not start (${(error as Error).message}); sites are served from the main thread`,
      );
      await this.close(true);
    });
  }

  /**
   * Moves a site host's connection to a worker; false when none can take it now (then the
   * caller serves it on this thread). `release` is asked for only once the worker has it.
   */
  take(socket: Socket, bytes: Buffer, timeouts: ConnectionTimeouts, release: () => () => void): boolean {
    if (this.closing) return false;
    if (!this.launched) this.launch();
    const worker = this.pick();
    const fd = plainTcpHandle(socket)?.fd;
    if (worker === undefined || typeof fd !== "number" || fd < 0) return false;
    const copy = dupFd!(fd);
    if (copy < 0) return false;
    this.post(worker, copy, new Uint8Array(bytes), timeouts, release());
    return true;
  }

  private post(worker: EdgeWorker, fd: number, bytes: Uint8Array, timeouts: ConnectionTimeouts, release: () => void): void {
    const id = ++this.lastId;
    this.moved.set(id, { worker, fd, release });
    worker.open++;
    const last = Atomics.load(worker.taken, 0);
    for (const taken of worker.unconfirmed.keys()) {
      if (((taken - last) | 0) > 0) break;
      worker.unconfirmed.delete(taken);
    }
    worker.unconfirmed.set(id, { bytes, timeouts });
    this.send(worker, { type: "connection", id, fd, bytes, ...timeouts, draining: this.draining });
  }

  /** What each worker has served, for tests and the admin socket; one that dies meanwhile is left out. */
  async report(): Promise<WorkerReport[]> {
    const ready = this.workers.filter((w) => w.ready);
    const reports = await Promise.all(
      ready.map(
        (worker) =>
          new Promise<WorkerReport | undefined>((answer) => {
            const id = ++this.lastId;
            this.reports.set(id, { worker, answer });
            this.send(worker, { type: "report", id });
          }),
      ),
    );
    return reports.filter((report) => report !== undefined);
  }

  /**
   * Tests only: worker `index` throws, as a bug would make it. With `hold`, it first blocks until
   * the returned function is called, so that connections are posted to it that it never takes;
   * with `failedStarts`, that many of its next starts throw too.
   */
  crashWorker(index: number, options: { hold?: boolean; failedStarts?: number } = {}): () => void {
    const worker = this.workers.find((w) => w.index === index && w.ready);
    if (worker === undefined) throw new Error(`edge worker ${index} is not running`);
    if (options.failedStarts) this.failingStarts.set(index, options.failedStarts);
    const gate = options.hold ? new Int32Array(new SharedArrayBuffer(4)) : undefined;
    this.send(worker, { type: "crash", hold: gate?.buffer });
    return () => {
      if (gate === undefined) return;
      Atomics.store(gate, 0, 1);
      Atomics.notify(gate, 0);
    };
  }

  /** Before close: every worker's connections close after their next answer (lifecycle.ts). */
  drain(): void {
    this.draining = true;
    for (const worker of this.workers) if (worker.ready) this.send(worker, { type: "drain" });
  }

  /**
   * Stops giving connections out, then each worker closes its own as server.close() does
   * (idle ones now, busy ones after their answer; `force`: all now) and writes its last
   * analytics through this thread, which must keep the database open until this resolves.
   */
  async close(force = false): Promise<void> {
    this.closing = true;
    for (const timer of this.restarts) clearTimeout(timer);
    this.restarts.clear();
    for (const [name, forward] of this.forwarders.splice(0)) this.options.events.off(name as "site", forward);
    await Promise.all(
      this.workers.map(async (worker) => {
        if (worker.ready) {
          await new Promise<void>((resolve) => {
            worker.closed = resolve;
            this.send(worker, { type: "close", force });
          });
        }
        await worker.thread.terminate();
      }),
    );
    for (const [id, moved] of this.moved) {
      moved.release();
      this.moved.delete(id);
    }
  }

  /** During close, after the shutdown's time limit: the workers' connections still open are cut off. */
  cutOff(): void {
    for (const worker of this.workers) if (worker.ready) this.send(worker, { type: "close", force: true });
  }

  /** The ready worker with the fewest open connections, taking turns among equals. */
  private pick(): EdgeWorker | undefined {
    let best: EdgeWorker | undefined;
    const n = this.workers.length;
    for (let i = 0; i < n; i++) {
      const worker = this.workers[(this.next + i) % n]!;
      if (worker.ready && (best === undefined || worker.open < best.open)) best = worker;
    }
    this.next = (this.next + 1) % Math.max(1, n);
    return best;
  }

  private forward(name: string, payload: unknown): void {
    for (const worker of this.workers) worker.events.postMessage({ name, payload });
    // After posting: a worker that sees the count also finds the message on its port.
    Atomics.add(this.posted, 0, 1);
  }

  private send(worker: EdgeWorker, message: ToWorker): void {
    worker.thread.postMessage(message);
  }

  /** What the workers counted (metrics/counts.ts), read at every scrape of the metrics. */
  counts(): Iterable<ServingCounts> {
    return this.served.values();
  }

  /** `again`: a restart, which is retried when it fails; a first start's failure is start()'s. */
  private spawn(index: number, again = false): Promise<void> {
    const channel = new MessageChannel();
    let counts = this.served.get(index);
    if (!counts) this.served.set(index, (counts = new ServingCounts()));
    const taken = new Int32Array(new SharedArrayBuffer(4));
    // Every id it will be posted is above the last one given out.
    taken[0] = this.lastId | 0;
    const sealed = newSealedLedger();
    const failing = this.failingStarts.get(index) ?? 0;
    if (failing > 0) this.failingStarts.set(index, failing - 1);
    const setup: WorkerSetup = {
      env: this.options.env,
      secret: this.options.secret,
      index,
      threads: this.count + 1,
      cacheBytes: threadBudget(this.options.env.edgeCacheBytes, this.count),
      analytics: this.options.analytics,
      posted: this.posted.buffer,
      postedBefore: Atomics.load(this.posted, 0),
      events: channel.port2,
      counts: counts.buffer,
      taken: taken.buffer,
      sealed: sealed.buffer,
      crashAtStart: failing > 0,
    };
    const thread = startThread(setup, [channel.port2]);
    const worker: EdgeWorker = { index, thread, ready: false, alive: true, open: 0, unconfirmed: new Map(), events: channel.port1, taken, sealed };
    const slot = this.workers.findIndex((w) => w.index === index);
    if (slot === -1) this.workers.push(worker);
    else this.workers[slot] = worker;

    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        // Its exit says why, and a restart is tried again later.
        worker.failure = new Error(`edge worker ${index} was not ready after ${START_TIMEOUT_MS / 1000} s`);
        reject(worker.failure);
        void thread.terminate();
      }, START_TIMEOUT_MS);
      timer.unref();
      thread.on("message", (message: FromWorker) => {
        if (message.type === "ready") {
          clearTimeout(timer);
          worker.ready = true;
          worker.readySince = Date.now();
          resolve();
          return;
        }
        this.receive(worker, message);
      });
      thread.on("error", (error) => {
        // Its exit follows; no more connections for it meanwhile.
        worker.failure = error;
        worker.ready = false;
      });
      thread.on("exit", (code) => {
        clearTimeout(timer);
        const served = worker.readySince !== undefined;
        worker.ready = false;
        worker.alive = false;
        channel.port1.close();
        const { lost, handedOver } = this.lost(worker);
        closeSealedLedger(sealed);
        for (const [id, pending] of this.reports) {
          if (pending.worker !== worker) continue;
          this.reports.delete(id);
          pending.answer(undefined);
        }
        worker.closed?.();
        if (this.closing) return;
        reject(worker.failure ?? new Error(`edge worker ${index} exited (${code})`));
        if (served || again) this.restart(worker, code, lost, handedOver);
      });
    });
  }

  /** Starts a dead worker again after its delay, and says so once. */
  private restart(worker: EdgeWorker, code: number, lost: number, handedOver: number): void {
    const { index } = worker;
    const stable = worker.readySince !== undefined && Date.now() - worker.readySince >= STABLE_AFTER_MS;
    const deaths = stable ? 0 : (this.deaths.get(index) ?? 0);
    this.deaths.set(index, deaths + 1);
    const delay = restartDelay(deaths);
    this.options.log.error(
      { err: worker.failure, worker: index, code, lostConnections: lost, handedOverConnections: handedOver, restartInMs: delay },
      `edge worker ${index} died (exit code ${code}); ${lost} connections lost, ${handedOver} it had not taken yet handed over; starting it again in ${delay / 1000} s`,
    );
    const timer = setTimeout(() => {
      this.restarts.delete(timer);
      if (this.closing) return;
      // A failure to start is a death of its own: its exit logs it and schedules the next try.
      this.spawn(index, true).catch(() => {});
    }, delay);
    timer.unref();
    this.restarts.add(timer);
  }

  /**
   * A worker's connections ended with it: their counts against their addresses end too. Those
   * it took closed with its thread. Those posted that it never took are still whole (their
   * descriptors this thread's, their first bytes kept), so they go to a live worker, or to this
   * thread when none is; while closing, they are closed.
   */
  private lost(worker: EdgeWorker): { lost: number; handedOver: number } {
    const last = Atomics.load(worker.taken, 0);
    let lost = 0;
    let handedOver = 0;
    for (const [id, moved] of this.moved) {
      if (moved.worker !== worker) continue;
      this.moved.delete(id);
      // Ids compared as Int32s, so that wrapping around changes nothing.
      const posted = ((id - last) | 0) > 0 ? worker.unconfirmed.get(id) : undefined;
      if (posted === undefined || this.closing) {
        if (posted !== undefined) closeQuietly(moved.fd);
        lost++;
        moved.release();
        continue;
      }
      handedOver++;
      const other = this.pick();
      if (other !== undefined) this.post(other, moved.fd, posted.bytes, posted.timeouts, moved.release);
      else this.serveHere(moved.fd, Buffer.from(posted.bytes.buffer, posted.bytes.byteOffset, posted.bytes.byteLength), moved.release);
    }
    worker.unconfirmed.clear();
    worker.open = 0;
    return { lost, handedOver };
  }

  private receive(worker: EdgeWorker, message: FromWorker): void {
    switch (message.type) {
      case "query":
        return void runProxiedQuery(this.options.db, message.sql, message.params, message.method).then(
          (result) => this.sendIfAlive(worker, { type: "result", id: message.id, result }),
          (error: unknown) => this.sendIfAlive(worker, { type: "result", id: message.id, error: queryError(error) }),
        );
      case "gone": {
        const moved = this.moved.get(message.id);
        if (moved === undefined) return;
        this.moved.delete(message.id);
        moved.release();
        worker.open--;
        return;
      }
      case "handBack":
        return this.handBack(worker, message.id, message.fd, Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.byteLength));
      case "log":
        return this.options.log[message.level]({ ...message.fields, edgeWorker: worker.index }, message.message ?? "");
      case "shareLinkUsedUp":
        return this.options.onShareLinkUsedUp({ siteId: message.siteId, linkId: message.linkId });
      case "report":
        this.reports.get(message.id)?.answer(message.report);
        this.reports.delete(message.id);
        return;
      case "closed":
        return worker.closed?.();
      case "ready":
        return;
    }
  }

  private handBack(worker: EdgeWorker, id: number, fd: number, bytes: Buffer): void {
    const moved = this.moved.get(id);
    this.moved.delete(id);
    if (moved !== undefined) worker.open--;
    this.serveHere(fd, bytes, moved?.release ?? (() => {}));
  }

  /** Serves on this thread a connection whose descriptor is `fd`, from its first `bytes` on. */
  private serveHere(fd: number, bytes: Buffer, release: () => void): void {
    let socket: Socket;
    try {
      socket = new net.Socket({ fd, readable: true, writable: true });
    } catch (error) {
      this.options.log.error({ err: error }, "could not take over a connection from an edge worker");
      closeQuietly(fd);
      return release();
    }
    if (this.adopt === undefined) {
      socket.destroy();
      return release();
    }
    this.adopt(socket, bytes, release);
  }

  private sendIfAlive(worker: EdgeWorker, message: ToWorker): void {
    if (worker.alive) this.send(worker, message);
  }
}

function queryError(error: unknown): QueryError {
  const { message, code } = error as { message?: string; code?: unknown };
  return { message: message ?? String(error), code: typeof code === "string" ? code : undefined };
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Already closed.
  }
}

/**
 * The worker's code: the bundle's edgeWorker.js next to main.js in production; from the sources
 * (tests, tsx) thread.ts, loaded through tsx, as Node 20 applies no --import loader to workers.
 */
function startThread(setup: WorkerSetup, transferList: MessagePort[]): Worker {
  useWorkerHeapSize();
  const options = { workerData: setup, transferList, name: `berth-edge-${setup.index}` };
  if (!import.meta.url.endsWith(".ts")) return new Worker(new URL("./edgeWorker.js", import.meta.url), options);
  // Its ESM entry: the package's own path to it, as `import` would resolve it from here.
  const tsx = path.dirname(createRequire(import.meta.url).resolve("tsx/package.json"));
  const api = pathToFileURL(path.join(tsx, "dist/esm/api/index.mjs")).href;
  const source = new URL("./thread.ts", import.meta.url).href;
  const code = `import(${JSON.stringify(api)}).then(({ tsImport }) => tsImport(${JSON.stringify(source)}, ${JSON.stringify(source)}))`;
  return new Worker(code, { ...options, eval: true });
}

/**
 * Sizes the heaps of the edge workers. V8 reads the young generation's flag when it makes an
 * isolate, so the main thread's, made at start, keeps its size. It reads the growing factor at
 * every full collection, of every isolate: the main thread's heap grows in the same steps from
 * then, which it can afford, as the workers serve the sites.
 */
export function useWorkerHeapSize(): void {
  v8.setFlagsFromString(`--max-semi-space-size=${WORKER_SEMI_SPACE_MB}`);
  v8.setFlagsFromString(`--heap-growing-percent=${WORKER_HEAP_GROWING_PERCENT}`);
}
