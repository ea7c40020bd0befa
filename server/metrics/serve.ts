// Where /metrics is answered. On the main port (a Fastify route, api/metrics/routes.ts) only with
// BERTH_METRICS_TOKEN, to a request bearing it; on BERTH_METRICS_LISTEN's listener of its own
// without it when that listener is on a loopback address, which only this machine reaches (env.ts
// refuses any other address unless the token is set, and then this listener asks for it too).
import { createHash, timingSafeEqual } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { FastifyBaseLogger } from "fastify";
import type { ListenAddress } from "../env";
import type { Exposition } from "./metrics";

export const METRICS_PATH = "/metrics";

const digest = (text: string) => createHash("sha256").update(text).digest();

/**
 * Whether an Authorization field carries `Bearer <token>`. Both sides are hashed first, so the
 * comparison takes the same time whatever the length or the first wrong character of a guess.
 */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? "");
  return timingSafeEqual(digest(match?.[1] ?? ""), digest(token)) && match !== null;
}

export const UNAUTHORIZED_HEADERS = { "www-authenticate": 'Bearer realm="berth-metrics"', "cache-control": "no-store" } as const;

/** Answers GET and HEAD /metrics, asking for `token` when one is given; 404 for any other path. */
export function metricsListener(metrics: Exposition, token: string | undefined, log: FastifyBaseLogger): http.RequestListener {
  return (req, res) => {
    req.resume();
    const path = (req.url ?? "").split("?")[0];
    if (path !== METRICS_PATH) return plain(res, 404, "not found\n");
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.setHeader("allow", "GET, HEAD");
      return plain(res, 405, "method not allowed\n");
    }
    if (token !== undefined && !bearerMatches(req.headers.authorization, token)) return plain(res, 401, "unauthorized\n", UNAUTHORIZED_HEADERS);
    metrics.text().then(
      (text) => {
        res.writeHead(200, { "content-type": metrics.contentType, "cache-control": "no-store", "content-length": Buffer.byteLength(text) });
        res.end(req.method === "HEAD" ? undefined : text);
      },
      (error: unknown) => {
        log.error({ err: error }, "metrics: could not write the exposition");
        plain(res, 500, "the metrics could not be read; the log says why\n");
      },
    );
  };
}

function plain(res: http.ServerResponse, status: number, body: string, headers: http.OutgoingHttpHeaders = {}): void {
  res.writeHead(status, { ...headers, "content-type": "text/plain; charset=utf-8", "content-length": Buffer.byteLength(body) });
  res.end(body);
}

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/** BERTH_METRICS_LISTEN's listener. A non-loopback address is allowed only with a token, which it then asks for. */
export async function startMetricsListener(
  metrics: Exposition,
  address: ListenAddress,
  token: string | undefined,
  log: FastifyBaseLogger,
): Promise<MetricsServer> {
  const server = http.createServer(metricsListener(metrics, address.loopback ? undefined : token, log));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(address.port, address.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
