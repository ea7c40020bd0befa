// Steady load for the operations tests (shutdown, rolling restart): clients that each keep one
// connection alive and send requests back to back, recording how every request ended and when
// it was sent, and a slow upload that trickles its body in over seconds.
import http from "node:http";
import { waitFor } from "./pages";

/** A browser's user agent: the edge counts such answers as page views (bots are counted apart). */
export const BROWSER_UA = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";

export interface Outcome {
  client: string;
  sentAt: number;
  /** The answer's status, when an answer came in full. */
  status?: number;
  /** The error code (ECONNREFUSED, ECONNRESET…) when none did. */
  error?: string;
  /** Whether the request went on a connection kept alive from an earlier request. */
  reused: boolean;
  /** The answer's body held what this client expects. */
  bodyOk?: boolean;
}

export interface Target {
  port: number;
  path: string;
  headers: Record<string, string>;
  /** What a good answer's body contains. */
  expect: string | RegExp;
}

/** One request; resolves with its outcome, never rejects. */
export function request(client: string, target: Target, agent: http.Agent): Promise<Outcome> {
  const sentAt = Date.now();
  return new Promise((resolve) => {
    const req = http.request({ host: "127.0.0.1", port: target.port, path: target.path, headers: target.headers, agent }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => {
        const bodyOk = typeof target.expect === "string" ? body.includes(target.expect) : target.expect.test(body);
        resolve({ client, sentAt, status: res.statusCode ?? 0, reused: req.reusedSocket, bodyOk });
      });
      res.on("error", (error: NodeJS.ErrnoException) => resolve({ client, sentAt, error: error.code ?? error.message, reused: req.reusedSocket }));
    });
    req.on("error", (error: NodeJS.ErrnoException) => resolve({ client, sentAt, error: error.code ?? error.message, reused: req.reusedSocket }));
    req.end();
  });
}

/** Clients sending requests back to back until stop(); each on its own kept-alive connection. */
export class Load {
  readonly outcomes: Outcome[] = [];
  private running = true;
  private readonly loops: Array<Promise<void>> = [];
  private readonly agents: http.Agent[] = [];

  /** `target` is asked before every request, so a test can point a client elsewhere. */
  add(client: string, target: () => Target): void {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    this.agents.push(agent);
    this.loops.push(
      (async () => {
        while (this.running) {
          const outcome = await request(client, target(), agent);
          this.outcomes.push(outcome);
          // A refused connection is retried a little later, not in a tight loop.
          if (outcome.error !== undefined) await new Promise((resolve) => setTimeout(resolve, 20));
        }
      })(),
    );
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
    for (const agent of this.agents) agent.destroy();
  }

  /** Waits until every client has had at least `count` good answers since now. */
  async untilAnswered(count: number, timeoutMs = 20_000): Promise<void> {
    const from = this.outcomes.length;
    await waitFor(() => {
      const good = this.outcomes.slice(from).filter((o) => o.status === 200).length;
      if (good < count) throw new Error(`only ${good} good answers of ${count}`);
    }, timeoutMs);
  }
}

/** Anything but a complete 2xx answer with the expected body. */
export function failed(outcome: Outcome): boolean {
  return outcome.status === undefined || outcome.status >= 300 || outcome.bodyOk !== true;
}

export interface SlowUpload {
  /** Resolves with the answer's status and body once it came (or the error). */
  done: Promise<{ status?: number; body: string; error?: string }>;
  /** When the last byte of the body was written. */
  finishedSending: Promise<number>;
}

/**
 * A multipart upload of one index.html of `bytes` bytes whose body is written in `chunks` parts,
 * `intervalMs` apart: a slow client, still sending when the server is told to stop.
 */
export function slowUpload(
  port: number,
  pathname: string,
  headers: Record<string, string>,
  html: string,
  options: { chunks: number; intervalMs: number },
): SlowUpload {
  const boundary = `----berth-slow-${Date.now()}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="index.html"\r\nContent-Type: text/html\r\n\r\n`),
    Buffer.from(html),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  let sent: (at: number) => void = () => {};
  const finishedSending = new Promise<number>((resolve) => (sent = resolve));
  const done = new Promise<{ status?: number; body: string; error?: string }>((resolve) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        path: pathname,
        method: "POST",
        agent: false,
        headers: { ...headers, "content-type": `multipart/form-data; boundary=${boundary}`, "content-length": String(body.length) },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on("error", (error: NodeJS.ErrnoException) => resolve({ body: "", error: error.code ?? error.message }));
    const size = Math.ceil(body.length / options.chunks);
    let offset = 0;
    const next = () => {
      const part = body.subarray(offset, offset + size);
      offset += part.length;
      if (offset >= body.length) {
        req.end(part);
        sent(Date.now());
        return;
      }
      req.write(part);
      setTimeout(next, options.intervalMs);
    };
    next();
  });
  return { done, finishedSending };
}
