// An edge worker: a thread that serves site hosts' connections handed to it by the main thread
// (pool.ts). It builds its own edge exactly as the main thread does (assemble.ts): blob store,
// blob cache, resolver, custom domains, host router and analytics, within its share of the
// memory budget. Its database is the main thread's, through dbProxy.ts, asked only on a miss.
//
// Events (a publish, a rollback, a deletion, a password or domain change) arrive on a port of
// their own. Before each request the worker compares the count the main thread has posted
// (shared memory) with the count it applied, and drains the port synchronously when it is
// behind: an event emitted before a request's bytes arrived is applied before that request is
// answered, as on a single thread, however busy this thread's event loop is.
import { closeSync } from "node:fs";
import net from "node:net";
import { parentPort, receiveMessageOnPort, threadId, workerData } from "node:worker_threads";
import { BerthEvents } from "../../events";
import { createBlobStore } from "../../storage";
import { DomainRegistry } from "../../sites/domainRegistry";
import { shareKeys } from "../../sites/shareTokens";
import { EdgeMemory } from "../memory/budget";
import { useReadyAnswersBudget } from "../http1/responseHead";
import { dupFd, useNativeSend } from "../native/kernelSend";
import { sealedCount, shareSealedBodies, useSealedLedger } from "../native/sealedBodies";
import { createHostRouter } from "../hosts";
import { assembleEdge } from "../assemble";
import { connectionPaths, EdgeConnection } from "../http1/connection";
import { IdleSweep } from "../http1/idleSweep";
import { plainTcpHandle } from "../http1/socketHandle";
import { proxiedDb } from "./dbProxy";
import { ServingCounts } from "../../metrics/counts";
import { threadLogger } from "./threadLog";
import { keepMemoryLean } from "../../idleMemory";
import type { EventMessage, FromWorker, ToWorker, WorkerSetup } from "./protocol";

const setup = workerData as WorkerSetup;
const port = parentPort!;
const post = (message: FromWorker) => port.postMessage(message);

const log = threadLogger((level, fields, message) => {
  try {
    post({ type: "log", level, fields, message });
  } catch {
    // Fields that cannot cross (a socket, a function): the line without them.
    post({ type: "log", level, fields: undefined, message });
  }
}, setup.env.logLevel);

const proxy = proxiedDb((id, sql, params, method) => post({ type: "query", id, sql, params, method }));
const events = new BerthEvents();

const posted = new Int32Array(setup.posted);
const taken = new Int32Array(setup.taken);
let applied = setup.postedBefore;

function apply(message: EventMessage): void {
  applied++;
  (events.emit as (name: string, payload?: unknown) => boolean)(message.name, message.payload);
}

/** Applies every event the main thread posted before now. */
function catchUp(): void {
  while (Atomics.load(posted, 0) !== applied) {
    const received = receiveMessageOnPort(setup.events);
    if (received === undefined) return;
    apply(received.message as EventMessage);
  }
}
setup.events.on("message", apply);

const { env } = setup;
const blobs = createBlobStore(env, env.dataDir);
const domains = new DomainRegistry(proxy.db, events, (error) => log.error({ err: error }, "could not reload custom domains"));
const memory = new EdgeMemory(setup.cacheBytes);
useReadyAnswersBudget(memory);
useNativeSend(env.nativeSend);
shareSealedBodies(setup.threads);
useSealedLedger(new Int32Array(setup.sealed));
const hosts = createHostRouter({ ...env, customDomains: domains, memory });
const counts = new ServingCounts(setup.counts);

const open = new Set<EdgeConnection>();
const sweep = new IdleSweep(open);
let received = 0;
let requests = 0;
let closing = false;
let draining = false;
let drained: (() => void) | undefined;
let closed: Promise<void> | undefined;

async function start(): Promise<void> {
  if (setup.crashAtStart) throw new Error(`edge worker ${setup.index} crashed on purpose at start (a test)`);
  await domains.load();
  const edge = await assembleEdge({
    env,
    db: proxy.db,
    events,
    blobs,
    memory,
    secret: setup.secret,
    shareKeys: shareKeys(setup.secret, env.appUrl),
    log,
    analytics: setup.analytics,
    counts,
    onShareLinkUsedUp: (used) => post({ type: "shareLinkUsedUp", ...used }),
  });
  sweep.start();
  // This thread's heap is its own: at rest it gives back what a burst of traffic grew it to.
  const stopLean = keepMemoryLean({ native: undefined });

  const serve = (message: Extract<ToWorker, { type: "connection" }>) => {
    received++;
    // Ours from here: if this thread dies now, the main thread leaves the descriptor alone (its
    // socket closes with the thread); before, the main thread closes it.
    Atomics.store(taken, 0, message.id);
    let socket: net.Socket;
    try {
      socket = new net.Socket({ fd: message.fd, readable: true, writable: true });
    } catch (error) {
      log.error({ err: error }, "edge worker could not open a connection it was given");
      closeQuietly(message.fd);
      post({ type: "gone", id: message.id });
      return;
    }
    let handedBack = false;
    const connection = new EdgeConnection(
      socket,
      {
        siteLabel: (host) => {
          catchUp();
          return hosts.siteLabel(host);
        },
        stableLabel: (host) => hosts.stableLabel(host),
        serve: (req, reply, label) => {
          catchUp();
          requests++;
          return edge.handler.serve(req, reply, label);
        },
        // Never called: handBack takes every request this layer does not answer.
        handOff: (s) => s.destroy(),
        handBack: (s, bytes) => {
          const fd = plainTcpHandle(s)?.fd;
          const copy = dupFd !== undefined && typeof fd === "number" && fd >= 0 ? dupFd(fd) : -1;
          if (copy < 0) return false;
          handedBack = true;
          post({ type: "handBack", id: message.id, fd: copy, bytes: new Uint8Array(bytes) });
          return true;
        },
        log,
        keepAliveMs: message.keepAliveMs,
        headersTimeoutMs: message.headersTimeoutMs,
        analytics: edge.analytics,
        requests: counts,
        clock: sweep,
      },
      (gone) => {
        open.delete(gone);
        if (!handedBack) post({ type: "gone", id: message.id });
        if (open.size === 0) drained?.();
      },
    );
    open.add(connection);
    if (closing) connection.close();
    else if (draining || message.draining) connection.drain();
    connection.begin(Buffer.from(message.bytes.buffer, message.bytes.byteOffset, message.bytes.byteLength));
  };

  // Asked again with force after the shutdown's time limit: what is still running is cut off,
  // and the one close in progress finishes.
  const close = (force: boolean): Promise<void> => {
    closing = true;
    sweep.stop();
    stopLean();
    // As server.close() does on the main thread: idle connections now, busy ones after their answer.
    for (const connection of open) {
      if (force) connection.destroy();
      else connection.close();
    }
    closed ??= (async () => {
      if (open.size > 0) await new Promise<void>((resolve) => (drained = resolve));
      await edge.analytics?.close();
      post({ type: "closed" });
    })();
    return closed;
  };

  port.on("message", (message: ToWorker) => {
    switch (message.type) {
      case "connection":
        return serve(message);
      case "report":
        return post({
          type: "report",
          id: message.id,
          report: {
            index: setup.index,
            threadId,
            connections: received,
            requests,
            open: open.size,
            sealed: sealedCount(),
            paths: { ...connectionPaths },
          },
        });
      case "crash":
        if (message.hold !== undefined) Atomics.wait(new Int32Array(message.hold), 0, 0, 60_000);
        throw new Error(`edge worker ${setup.index} crashed on purpose (a test)`);
      case "result":
        return;
      case "drain":
        draining = true;
        for (const connection of open) connection.drain();
        return;
      case "close":
        void close(message.force).catch((error: unknown) => log.error({ err: error }, "edge worker did not close cleanly"));
        return;
    }
  });
  post({ type: "ready" });
}

// Results from the start, while start() still awaits them (domains, the salt), and after.
port.on("message", (message: ToWorker) => {
  if (message.type === "result") proxy.settle(message.id, message.result, message.error);
});
function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Already closed.
  }
}

// A failure to start kills the thread with its cause, which the main thread logs once.
start().catch((error: unknown) =>
  setImmediate(() => {
    throw error;
  }),
);
