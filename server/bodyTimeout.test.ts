// The body timeout of Berth's HTTP server over real sockets, with a 1 s timeout: a body that stops
// arriving is answered 408 and closed; one that keeps arriving, however slowly, or that waits on
// the server itself, is not cut off. With and without the edge's own HTTP/1.1 layer in front.
import type http from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { createBerthServer, type ServerOptions } from "./httpServer";
import { RawConnection } from "./test/rawHttp";

const TIMEOUT_MS = 1000;
const log = pino({ level: "silent" });
const noSites = { siteLabel: () => undefined, stableLabel: () => undefined };

/** Reads the whole body, then answers with its length; `delayMs` first, like a busy handler. */
function counting(delayMs = 0): http.RequestListener {
  return (req, res) => {
    void sleep(delayMs).then(() => {
      let length = 0;
      req.on("data", (chunk: Buffer) => (length += chunk.length));
      req.on("end", () => {
        res.writeHead(200, { "content-type": "text/plain" });
        res.end(String(length));
      });
    });
  };
}

describe.each([
  { layer: "node:http alone", edge: undefined },
  // A handler that is never asked: every request here is for the dashboard's host, which the
  // edge's layer hands to node:http (with the bytes it read) at its first body.
  { layer: "the edge's layer handing over", edge: {} as NonNullable<ServerOptions["edge"]> },
])("request bodies that stop arriving ($layer)", ({ edge }) => {
  let server: http.Server | undefined;
  const open: RawConnection[] = [];

  afterEach(async () => {
    for (const connection of open.splice(0)) connection.close();
    const closing = server;
    server = undefined;
    if (closing) await new Promise((resolve) => closing.close(resolve));
  });

  async function connect(handler: http.RequestListener): Promise<RawConnection> {
    server = createBerthServer({ hosts: noSites, edge, log, fallback: handler, bodyTimeoutMs: TIMEOUT_MS });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const connection = await RawConnection.open((server.address() as AddressInfo).port);
    open.push(connection);
    return connection;
  }

  const post = (length: number | "chunked") =>
    `POST /api/contact HTTP/1.1\r\nHost: localhost:8080\r\nContent-Type: application/json\r\n` +
    (length === "chunked" ? "Transfer-Encoding: chunked\r\n" : `Content-Length: ${length}\r\n`) +
    "\r\n";

  it("answers 408 and closes the connection when the body stops arriving", async () => {
    const c = await connect(counting());
    c.write(post(500) + '{"name":"slow');
    const started = Date.now();
    const answer = await c.response({ timeoutMs: 5000 });
    const elapsed = Date.now() - started;
    expect(answer.status).toBe(408);
    expect(answer.headers.connection).toBe("close");
    expect(JSON.parse(answer.body.toString())).toEqual({
      error: { code: "request_timeout", message: "The request body stopped arriving. Please try again." },
    });
    await c.closedByServer(1000);
    expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(elapsed).toBeLessThan(TIMEOUT_MS * 2);
  });

  it("does the same for a chunked body", async () => {
    const c = await connect(counting());
    c.write(post("chunked") + "5\r\nhello\r\n");
    expect((await c.response({ timeoutMs: 5000 })).status).toBe(408);
    await c.closedByServer(1000);
  });

  it("closes without a second answer when the answer has already started", async () => {
    const c = await connect((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.write("started");
    });
    let received = "";
    c.socket.on("data", (chunk: Buffer) => (received += chunk.toString("latin1")));
    c.write(post(500) + "{");
    await c.closedByServer(5000);
    expect(received).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(received).toContain("started");
    expect(received).not.toContain("408");
  });

  it("keeps a body that trickles a byte every 500 ms for several timeouts", async () => {
    const c = await connect(counting());
    const body = '{"name":"a"}';
    c.write(post(body.length));
    const started = Date.now();
    for (const byte of body) {
      await sleep(500);
      c.write(byte);
    }
    const answer = await c.response({ timeoutMs: 5000 });
    expect(Date.now() - started).toBeGreaterThan(TIMEOUT_MS * 5);
    expect(answer.status).toBe(200);
    expect(answer.body.toString()).toBe(String(body.length));
    // Nor does node:http's own limit on the whole request (300 s by default) cut off a long
    // upload that keeps arriving: it is off.
    expect(server!.requestTimeout).toBe(0);
  });

  it("does not count the time the server itself takes to read the body", async () => {
    // 4 MB sent at once to a handler that starts reading after three timeouts: the socket's
    // buffers fill and node stops reading, waiting on the handler, not on the client.
    const c = await connect(counting(TIMEOUT_MS * 3));
    const body = Buffer.alloc(4 * 1024 * 1024, 120);
    c.write(post(body.length));
    c.write(body);
    const answer = await c.response({ timeoutMs: 15_000 });
    expect(answer.status).toBe(200);
    expect(answer.body.toString()).toBe(String(body.length));
  });

  it("leaves a request without a body to the other timeouts", async () => {
    const c = await connect((_req, res) => {
      void sleep(TIMEOUT_MS * 2).then(() => res.end("late"));
    });
    c.write("GET /api/health HTTP/1.1\r\nHost: localhost:8080\r\n\r\n");
    const answer = await c.response({ timeoutMs: 5000 });
    expect(answer.status).toBe(200);
    expect(answer.body.toString()).toBe("late");
  });
});
