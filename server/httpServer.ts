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
import { EdgeConnection } from "./edge/http1/connection";
import { IdleSweep } from "./edge/http1/idleSweep";
import type { AnalyticsRecorder } from "./edge/analytics/collector";
import { ConnectionsPerAddress } from "./addressCap";
import { watchBodyProgress } from "./bodyTimeout";
import { DEFAULT_BODY_TIMEOUT_SECONDS } from "./env";

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
}

export function createBerthServer(options: ServerOptions): http.Server {
  const { hosts, edge, fallback, log } = options;
  const bodyTimeoutMs = options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_SECONDS * 1000;
  const server = http.createServer((req, res) => {
    if (impossibleHost(req.headers.host)) return refuse(res, IMPOSSIBLE_HOST);
    // Every request with a body passes here: the API's, uploads, the edge's password forms.
    watchBodyProgress(req, res, bodyTimeoutMs, log);
    const label = edge ? hosts.siteLabel(req.headers.host) : undefined;
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
  if (!edge) {
    server.on("connection", (socket: Socket) => {
      if (admitted(socket)) handOff(socket);
    });
    return server;
  }

  const open = new Set<EdgeConnection>();
  const gone = (connection: EdgeConnection) => open.delete(connection);
  const sweep = new IdleSweep(open);
  server.on("listening", () => sweep.start());
  server.on("close", () => sweep.stop());
  server.on("connection", (socket: Socket) => {
    if (!admitted(socket)) return;
    const connection = new EdgeConnection(
      socket,
      {
        siteLabel: (host) => hosts.siteLabel(host),
        stableLabel: (host) => hosts.stableLabel(host),
        serve: (req, reply, label) => edge.serve(req, reply, label),
        handOff,
        log,
        keepAliveMs: server.keepAliveTimeout,
        headersTimeoutMs: server.headersTimeout,
        analytics: options.analytics,
        clock: sweep,
      },
      gone,
    );
    open.add(connection);
  });
  // server.close() calls this; the edge's idle connections must go too, or close() would wait
  // for them until their keep-alive runs out.
  const closeNodeIdle = server.closeIdleConnections.bind(server);
  server.closeIdleConnections = () => {
    closeNodeIdle();
    for (const connection of open) connection.close();
  };
  return server;
}

function refuse(res: http.ServerResponse, refusal: Refusal): void {
  res.writeHead(refusal.status, refusal.headers);
  res.end(refusal.body);
}
