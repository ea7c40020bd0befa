// The one HTTP server of a Berth process. Connections start on the edge's own HTTP/1.1 layer
// (edge/http1), which answers plain GET and HEAD requests for site hosts; every other connection
// is handed to node:http, where site hosts still go to the edge and the rest to Fastify (API and
// dashboard) or, without those roles, to `fallback`. A Host no DNS name can be gets 400, and a
// site host's request target longer than 8 KB gets 414, on both layers, before anything is looked
// up or remembered for them (edge/requestLimits.ts).
import http from "node:http";
import type { Socket } from "node:net";
import type { FastifyBaseLogger } from "fastify";
import type { EdgeHandler } from "./edge/handler";
import type { HostRouter } from "./edge/hosts";
import { impossibleHost } from "./http/host";
import { IMPOSSIBLE_HOST, MAX_TARGET_LENGTH, TARGET_TOO_LONG, type Refusal } from "./edge/requestLimits";
import { EdgeConnection, LAST_CALL_MS } from "./edge/http1/connection";
import { IdleSweep } from "./edge/http1/idleSweep";
import type { AnalyticsRecorder } from "./edge/analytics/collector";
import { ConnectionsPerAddress } from "./addressCap";
import { watchBodyProgress } from "./bodyTimeout";
import { DEFAULT_BODY_TIMEOUT_SECONDS } from "./env";
import type { EdgeWorkerPool } from "./edge/workers/pool";
import { HOST_KIND_INDEX, type ServingCounts } from "./metrics/counts";
import type { Lifecycle } from "./lifecycle";

export interface ServerOptions {
  hosts: HostRouter;
  /** Absent when this process has no edge role. */
  edge: EdgeHandler | undefined;
  /** Requests that are not for a site host. */
  fallback: http.RequestListener;
  log: FastifyBaseLogger;
  /** The edge's analytics, which its own HTTP/1.1 layer feeds; absent when off. */
  analytics?: AnalyticsRecorder | undefined;
  /** How long a request body may make no progress before 408 (BERTH_BODY_TIMEOUT_SECONDS; 30 s when absent). */
  bodyTimeoutMs?: number | undefined;
  /** Open connections per client address (BERTH_MAX_CONNECTIONS_PER_IP); absent or 0: no cap. */
  maxConnectionsPerAddress?: number | undefined;
  /** Threads that serve site hosts' connections (BERTH_EDGE_WORKERS ≥ 2); absent: this thread does. */
  workers?: EdgeWorkerPool | undefined;
  /** Counts every answer, on both HTTP layers, for the metrics; absent: nothing is counted. */
  requests?: ServingCounts | undefined;
  /** Once draining, every answer closes its connection (lifecycle.ts); absent: never draining. */
  lifecycle?: Lifecycle | undefined;
}

export function createBerthServer(options: ServerOptions): http.Server {
  const { hosts, edge, fallback, log } = options;
  const bodyTimeoutMs = options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_SECONDS * 1000;
  const { requests, lifecycle } = options;
  const server = http.createServer((req, res) => {
    // node:http then ends the connection after this answer, so the client opens a new one.
    if (lifecycle?.draining) res.setHeader("connection", "close");
    if (impossibleHost(req.headers.host)) {
      if (requests) countWhenDone(requests, HOST_KIND_INDEX.dashboard, req, res);
      return refuse(res, IMPOSSIBLE_HOST);
    }
    // Every request with a body passes here: the API's, uploads, the edge's password forms.
    watchBodyProgress(req, res, bodyTimeoutMs, log);
    const label = edge ? hosts.siteLabel(req.headers.host) : undefined;
    if (requests) {
      const kind = label === undefined ? "dashboard" : hosts.stableLabel(req.headers.host!) !== undefined ? "site" : "custom_domain";
      countWhenDone(requests, HOST_KIND_INDEX[kind], req, res);
    }
    if (label !== undefined) {
      if ((req.url?.length ?? 0) > MAX_TARGET_LENGTH) return refuse(res, TARGET_TOO_LONG);
      return edge!.serveNode(req, res, label);
    }
    fallback(req, res);
  });
  // Off: it bounds the whole request, so it would cut off an upload taking longer than 300 s
  // however steadily it arrives. A stalled body is bodyTimeoutMs's job; headersTimeout still
  // bounds the head.
  server.requestTimeout = 0;

  // Every connection is counted against its address first; node:http's own listener then runs
  // for the connections the edge hands over, or for every connection without the edge role.
  const nodeListeners = server.listeners("connection") as Array<(socket: Socket) => void>;
  server.removeAllListeners("connection");
  const handOff = (socket: Socket) => {
    for (const listener of nodeListeners) listener.call(server, socket);
  };
  const perAddress = options.maxConnectionsPerAddress ? new ConnectionsPerAddress(options.maxConnectionsPerAddress, log) : undefined;
  const admitted = (socket: Socket): boolean => {
    if (!perAddress || perAddress.admit(socket)) return true;
    socket.destroy();
    return false;
  };
  // server.close() calls this. Idle connections must go, or close() would wait for them until
  // their keep-alive runs out; but a request may be on its way on one, so each first gets
  // LAST_CALL_MS, and what comes is answered with `connection: close` (draining).
  let closeEdgeIdle = () => {};
  let closeEdgeAll = () => {};
  const closeNodeIdle = server.closeIdleConnections.bind(server);
  server.closeIdleConnections = () => {
    lifecycle?.drain();
    setTimeout(closeNodeIdle, LAST_CALL_MS).unref();
    closeEdgeIdle();
  };
  // After the shutdown's time limit: what is still running is cut off.
  const closeNodeAll = server.closeAllConnections.bind(server);
  server.closeAllConnections = () => {
    closeNodeAll();
    closeEdgeAll();
  };
  if (!edge) {
    server.on("connection", (socket: Socket) => {
      if (admitted(socket)) handOff(socket);
    });
    return server;
  }

  const open = new Set<EdgeConnection>();
  const gone = (connection: EdgeConnection) => open.delete(connection);
  const sweep = new IdleSweep(open);
  let closing = false;
  server.on("listening", () => sweep.start());
  server.on("close", () => sweep.stop());
  const { workers } = options;
  // A site host's connection moves to an edge worker before its first answer (workers/pool.ts).
  const transfer = (socket: Socket, bytes: Buffer) =>
    workers!.take(socket, bytes, { keepAliveMs: server.keepAliveTimeout, headersTimeoutMs: server.headersTimeout }, () =>
      perAddress ? perAddress.detach(socket) : () => {},
    );
  const serveHere = (socket: Socket, moves: boolean): EdgeConnection => {
    const connection = new EdgeConnection(
      socket,
      {
        siteLabel: (host) => hosts.siteLabel(host),
        stableLabel: (host) => hosts.stableLabel(host),
        serve: (req, reply, label) => edge.serve(req, reply, label),
        handOff,
        transfer: moves ? transfer : undefined,
        log,
        keepAliveMs: server.keepAliveTimeout,
        headersTimeoutMs: server.headersTimeout,
        analytics: options.analytics,
        requests,
        clock: sweep,
      },
      gone,
    );
    open.add(connection);
    if (lifecycle?.draining) connection.drain();
    return connection;
  };
  server.on("connection", (socket: Socket) => {
    if (admitted(socket)) serveHere(socket, workers !== undefined);
  });
  if (workers) {
    // A connection a worker gave back (another host, a Range, a body) stays on this thread for
    // good: moving it again could only bounce between threads that disagree for a moment.
    workers.adopt = (socket, bytes, release) => {
      socket.once("close", release);
      const connection = serveHere(socket, false);
      if (closing) connection.close();
      connection.begin(bytes);
    };
  }
  lifecycle?.whenDraining(() => {
    for (const connection of open) connection.drain();
    workers?.drain();
  });
  closeEdgeIdle = () => {
    closing = true;
    for (const connection of open) connection.close();
  };
  closeEdgeAll = () => {
    closing = true;
    for (const connection of open) connection.destroy();
  };
  return server;
}

/**
 * Per socket, how many of its bytes written are already counted: what the edge's own layer sent
 * before handing the connection over (it counted those), then each answer here in turn.
 */
const countedBytes = new WeakMap<Socket, number>();

/**
 * Counts the answer once it is done or abandoned. node:http writes a connection's answers one
 * after another (a pipelined request's answer waits in its response until the one before is
 * sent), so the socket's bytes since the previous answer are this answer's, head included.
 */
function countWhenDone(requests: ServingCounts, kind: number, req: http.IncomingMessage, res: http.ServerResponse): void {
  const { socket } = req;
  if (!countedBytes.has(socket)) countedBytes.set(socket, socket.bytesWritten);
  res.once("close", () => {
    const written = socket.bytesWritten;
    requests.add(kind, res.statusCode, written - (countedBytes.get(socket) ?? written));
    countedBytes.set(socket, written);
  });
}

function refuse(res: http.ServerResponse, refusal: Refusal): void {
  res.writeHead(refusal.status, refusal.headers);
  res.end(refusal.body);
}
