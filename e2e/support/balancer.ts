// A small HTTP load balancer for the multi-node tests, behaving as HAProxy or nginx do with
// active health checks: round robin over the nodes whose GET /api/health answered 200 at the
// last check, a node taken out at its first failed check or refused connection. A request whose
// connection is refused is tried on the next node (the node cannot have seen it); a GET or HEAD
// also when a kept-alive connection is closed under it before any answer, as nginx does.
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface Backend {
  port: number;
  healthy: boolean;
  /** Requests it answered through the balancer. */
  answered: number;
  agent: http.Agent;
  /** What each health check found, when it changed: "ok", "draining", "unavailable" or "down" (no answer). */
  seen: Array<{ at: number; state: string }>;
}

export interface Balancer {
  port: number;
  backends: Backend[];
  /** Requests tried on another node after a refused or closed connection. */
  retried: number;
  close(): Promise<void>;
}

export async function startBalancer(ports: number[], options: { checkEveryMs: number }): Promise<Balancer> {
  const backends: Backend[] = ports.map((port) => ({
    port,
    healthy: true,
    answered: 0,
    agent: new http.Agent({ keepAlive: true }),
    seen: [],
  }));
  let next = 0;
  const pick = (exclude: Set<Backend>): Backend | undefined => {
    for (let i = 0; i < backends.length; i++) {
      const backend = backends[(next + i) % backends.length]!;
      if (backend.healthy && !exclude.has(backend)) {
        next = (next + i + 1) % backends.length;
        return backend;
      }
    }
    return undefined;
  };

  const balancer: Balancer = { port: 0, backends, retried: 0, close: async () => {} };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => forward(Buffer.concat(chunks), new Set()));
    const retryable = req.method === "GET" || req.method === "HEAD";

    function forward(body: Buffer, tried: Set<Backend>): void {
      const backend = pick(tried);
      if (backend === undefined) {
        res.writeHead(503, { "content-type": "text/plain" });
        res.end("no node available");
        return;
      }
      tried.add(backend);
      const headers = { ...req.headers, "x-forwarded-for": req.socket.remoteAddress ?? "127.0.0.1" };
      const upstream = http.request(
        { host: "127.0.0.1", port: backend.port, method: req.method, path: req.url, headers, agent: backend.agent },
        (answer) => {
          backend.answered++;
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on("error", (error: NodeJS.ErrnoException) => {
        if (res.headersSent) return void res.destroy();
        const refused = error.code === "ECONNREFUSED";
        if (refused) backend.healthy = false;
        const unseen = refused || (upstream.reusedSocket && error.code === "ECONNRESET");
        if (unseen && (retryable || refused)) {
          balancer.retried++;
          return forward(body, tried);
        }
        res.writeHead(502, { "content-type": "text/plain" });
        res.end(`node ${backend.port}: ${error.code ?? error.message}`);
      });
      upstream.end(body);
    }
  });
  // Keep-alive from the clients too, as a real balancer offers.
  server.keepAliveTimeout = 30_000;

  const check = async () => {
    await Promise.all(
      backends.map(async (backend) => {
        const state = await fetch(`http://127.0.0.1:${backend.port}/api/health`, { signal: AbortSignal.timeout(1000) }).then(
          async (r) => ((await r.json()) as { status: string }).status,
          () => "down",
        );
        backend.healthy = state === "ok";
        if (backend.seen.at(-1)?.state !== state) backend.seen.push({ at: Date.now(), state });
      }),
    );
  };
  let checking = true;
  const checks = (async () => {
    while (checking) {
      await check();
      await new Promise((resolve) => setTimeout(resolve, options.checkEveryMs));
    }
  })();

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  balancer.port = (server.address() as AddressInfo).port;
  balancer.close = async () => {
    checking = false;
    await checks;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    for (const backend of backends) backend.agent.destroy();
  };
  return balancer;
}
