// The edge's own HTTP/1.1 layer over real sockets: framing, pipelining, the hand-over to
// node:http, connection management and timeouts. A real site is published through the API.
import { randomBytes } from "node:crypto";
import type http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { getTestServer, type TestServer } from "../../test/support";
import { signedInClient } from "../../test/factories";
import { createSiteWith, hostOf, zipOf } from "../../test/sites";
import { RawConnection, type RawResponse } from "../../test/rawHttp";
import { createBerthServer } from "../../httpServer";
import { createEdgeHandler } from "../handler";
import { passKeys } from "../protection";
import { EdgeResolver } from "../resolver";
import { BlobCache, MAX_CACHED_FILE_BYTES } from "../blobCache";
import { EdgeMemory } from "../memory/budget";
import { createHostRouter } from "../hosts";
import { kernelSend } from "../native/kernelSend";
import { connectionPaths } from "./connection";

const big = randomBytes(3 * 1024 * 1024); // above the memory cache's per-file limit: streamed
const medium = randomBytes(150 * 1024); // cached, and sent by the kernel from a sealed memfd
const text = "0123456789".repeat(500);

// node:http spells the field "Connection"; the edge's own layer writes names in lower case.
const byEdgeLayer = (r: RawResponse) => r.head.includes("\r\nconnection: ");
const byNodeHttp = (r: RawResponse) => r.head.includes("\r\nConnection: ");

describe("the edge's HTTP/1.1 layer", () => {
  let server: TestServer;
  let host: string;
  let listening: http.Server | undefined;
  const open: RawConnection[] = [];

  beforeAll(async () => {
    server = await getTestServer("pglite");
    const { client } = await signedInClient(server);
    const zip = await zipOf([
      { name: "index.html", data: "<h1>Home</h1>" },
      { name: "a.txt", data: "first file" },
      { name: "b.txt", data: "second file" },
      { name: "text.txt", data: text },
      { name: "big.bin", data: big },
      { name: "medium.bin", data: medium },
    ]);
    host = hostOf((await createSiteWith(client, { name: "site.zip", content: zip, type: "application/zip" })).url);
  });
  afterEach(async () => {
    for (const connection of open.splice(0)) connection.close();
    const server = listening;
    listening = undefined;
    if (server) await new Promise((resolve) => server.close(resolve));
  });
  afterAll(() => server.close());

  async function connect(settings: { headersTimeout?: number; keepAliveTimeout?: number } = {}): Promise<RawConnection> {
    if (!listening) {
      const { ctx } = server;
      const memory = new EdgeMemory(ctx.env.edgeCacheBytes);
      const edge = createEdgeHandler({
        resolver: new EdgeResolver(ctx.db, ctx.events, memory),
        blobs: ctx.blobs,
        cache: new BlobCache(ctx.blobs, memory, MAX_CACHED_FILE_BYTES),
        log: ctx.log,
        db: ctx.db,
        passKeys: passKeys(ctx.env.secret!, ctx.env.appUrl),
        shareKeys: ctx.shareKeys,
        trustProxy: ctx.env.trustProxy,
      });
      listening = createBerthServer({
        hosts: createHostRouter({ ...ctx.env, memory }),
        edge,
        log: ctx.log,
        fallback: (_req, res) => {
          res.writeHead(421, { "content-length": 2 });
          res.end("no");
        },
      });
      if (settings.headersTimeout) listening.headersTimeout = settings.headersTimeout;
      if (settings.keepAliveTimeout) listening.keepAliveTimeout = settings.keepAliveTimeout;
      await new Promise<void>((resolve) => listening!.listen(0, "127.0.0.1", resolve));
    }
    const connection = await RawConnection.open((listening.address() as AddressInfo).port);
    open.push(connection);
    return connection;
  }

  const get = (path: string, extra = "") => `GET ${path} HTTP/1.1\r\nHost: ${host}\r\n${extra}\r\n`;

  it("answers a plain GET itself, with Date and keep-alive", async () => {
    const c = await connect();
    c.write(get("/a.txt"));
    const r = await c.response();
    expect(r.status).toBe(200);
    expect(r.body.toString()).toBe("first file");
    expect(byEdgeLayer(r)).toBe(true);
    expect(r.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(r.headers["x-content-type-options"]).toBe("nosniff");
    expect(new Date(r.headers.date!).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(r.headers.connection).toBe("keep-alive");
  });

  // Both fast paths rest on node's socket internals; on a supported Node on Linux they must be on,
  // so an upgrade that moves those internals fails here instead of slowing the edge in silence.
  it.runIf(process.platform === "linux")(`uses shared reads and kernel sends on Node ${process.version}`, async () => {
    const before = { ...connectionPaths };
    const c = await connect();
    c.write(get("/a.txt"));
    expect((await c.response()).body.toString()).toBe("first file");
    expect(connectionPaths.sharedReads).toBe(before.sharedReads + 1);
    expect(connectionPaths.streamReads).toBe(before.streamReads);
    expect(kernelSend).toBeDefined();
    expect(connectionPaths.kernelSends).toBe(before.kernelSends + 1);
  });

  it("answers pipelined requests in order, split anywhere", async () => {
    const c = await connect();
    const requests = get("/a.txt") + get("/b.txt") + get("/text.txt") + get("/missing") + get("/a.txt");
    // One byte at a time for the first, the rest in one write.
    for (const byte of requests.slice(0, 40)) c.write(byte);
    c.write(requests.slice(40));
    const bodies = [];
    for (let i = 0; i < 5; i++) bodies.push(await c.response());
    expect(bodies.map((r) => r.status)).toEqual([200, 200, 200, 404, 200]);
    expect(bodies[0]!.body.toString()).toBe("first file");
    expect(bodies[1]!.body.toString()).toBe("second file");
    expect(bodies[2]!.body.toString()).toBe(text);
    expect(bodies[4]!.body.toString()).toBe("first file");
  });

  it("keeps framing after HEAD and 304, which have no body", async () => {
    const c = await connect();
    c.write(`HEAD /text.txt HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
    const head = await c.response({ bodiless: true });
    expect(head.headers["content-length"]).toBe(String(text.length));
    c.write(get("/text.txt", `If-None-Match: ${head.headers.etag}\r\n`) + get("/a.txt"));
    expect((await c.response()).status).toBe(304);
    expect((await c.response()).body.toString()).toBe("first file");
    expect(c.pending).toBe(0);
  });

  it("streams a file too big for memory, and goes on serving after", async () => {
    const c = await connect();
    c.write(get("/big.bin") + get("/a.txt"));
    const r = await c.response({ timeoutMs: 15_000 });
    expect(byEdgeLayer(r)).toBe(true);
    expect(r.body.equals(big)).toBe(true);
    expect((await c.response()).body.toString()).toBe("first file");
  });

  it.runIf(process.platform === "linux")("sends cached bodies over 16 KB from the kernel, byte for byte and in order", async () => {
    const sends = vi.spyOn(kernelSend!, "sendHead");
    try {
      const c = await connect();
      c.write(get("/medium.bin"));
      expect((await c.response()).body.equals(medium)).toBe(true);
      c.write(get("/medium.bin") + get("/a.txt") + get("/medium.bin") + `HEAD /medium.bin HTTP/1.1\r\nHost: ${host}\r\n\r\n` + get("/b.txt"));
      const [first, small, second] = [await c.response(), await c.response(), await c.response()];
      const head = await c.response({ bodiless: true });
      const last = await c.response();
      expect(first.body.equals(medium)).toBe(true);
      expect(byEdgeLayer(first)).toBe(true);
      expect(first.headers["content-length"]).toBe(String(medium.length));
      expect(first.headers.etag).toBeDefined();
      expect(small.body.toString()).toBe("first file");
      expect(second.body.equals(medium)).toBe(true);
      expect(head.headers["content-length"]).toBe(String(medium.length));
      expect(last.body.toString()).toBe("second file");
      expect(c.pending).toBe(0);
      expect(sends).toHaveBeenCalled();
    } finally {
      sends.mockRestore();
    }
  });

  it("gives a client that reads slowly every byte, the kernel's part first and Node's after", async () => {
    const c = await connect();
    c.write(get("/medium.bin"));
    await c.response();
    const count = 30; // 4.5 MB: more than the socket buffers hold
    c.socket.pause();
    c.write(get("/medium.bin").repeat(count) + get("/a.txt"));
    await new Promise((resolve) => setTimeout(resolve, 300));
    c.socket.resume();
    for (let i = 0; i < count; i++) expect((await c.response()).body.equals(medium)).toBe(true);
    expect((await c.response()).body.toString()).toBe("first file");
  });

  it("survives a client that leaves in the middle of a stream", async () => {
    const leaving = await connect();
    leaving.write(get("/big.bin"));
    await new Promise((resolve) => leaving.socket.once("data", resolve));
    leaving.close();
    const c = await connect();
    c.write(get("/big.bin"));
    expect((await c.response({ timeoutMs: 15_000 })).body.equals(big)).toBe(true);
  });

  it("hands a Range request to node:http, pipelined bytes and all, which serves the rest", async () => {
    const c = await connect();
    c.write(get("/a.txt"));
    expect(byEdgeLayer(await c.response())).toBe(true);
    c.write(get("/text.txt", "Range: bytes=10-19\r\n") + get("/b.txt") + get("/big.bin", "Range: bytes=-5\r\n"));
    const range = await c.response();
    expect(range.status).toBe(206);
    expect(range.headers["content-range"]).toBe(`bytes 10-19/${text.length}`);
    expect(range.body.toString()).toBe(text.slice(10, 20));
    expect(byNodeHttp(range)).toBe(true);
    const next = await c.response();
    expect(next.body.toString()).toBe("second file");
    expect(byNodeHttp(next)).toBe(true);
    const tail = await c.response();
    expect(tail.status).toBe(206);
    expect(tail.body.equals(big.subarray(big.length - 5))).toBe(true);
  });

  it("hands over requests for other hosts, to the server's other handler", async () => {
    const c = await connect();
    c.write(get("/a.txt") + "GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n");
    expect((await c.response()).status).toBe(200);
    const other = await c.response();
    expect(other.status).toBe(421);
    expect(other.body.toString()).toBe("no");
  });

  it("lets node:http answer methods other than GET and HEAD, with 405", async () => {
    const c = await connect();
    c.write(`POST /a.txt HTTP/1.1\r\nHost: ${host}\r\nContent-Length: 5\r\n\r\nhello` + get("/b.txt"));
    const r = await c.response();
    expect(r.status).toBe(405);
    expect(r.headers.allow).toBe("GET, HEAD");
    expect((await c.response()).body.toString()).toBe("second file");
  });

  it("cannot be made to read a body as a request (smuggling)", async () => {
    const c = await connect();
    const hidden = get("/b.txt");
    c.write(`GET /a.txt HTTP/1.1\r\nHost: ${host}\r\nContent-Length: ${hidden.length}\r\n\r\n${hidden}`);
    const r = await c.response();
    expect(r.body.toString()).toBe("first file");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(c.pending).toBe(0);

    const chunked = await connect();
    chunked.write(
      `GET /a.txt HTTP/1.1\r\nHost: ${host}\r\nTransfer-Encoding: chunked\r\n\r\n${hidden.length.toString(16)}\r\n${hidden}\r\n0\r\n\r\n`,
    );
    expect((await chunked.response()).body.toString()).toBe("first file");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(chunked.pending).toBe(0);
  });

  it("refuses malformed and oversized heads through node:http", async () => {
    const bad = await connect();
    bad.write(`GET /a.txt HTTP/1.1\r\nHost : ${host}\r\n\r\n`);
    expect((await bad.response()).status).toBe(400);

    const huge = await connect();
    huge.write(`GET /a.txt HTTP/1.1\r\nHost: ${host}\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`);
    expect((await huge.response()).status).toBe(431);
  });

  it("closes after the answer when the client asks, or speaks HTTP/1.0", async () => {
    const close = await connect();
    close.write(get("/a.txt", "Connection: close\r\n") + get("/b.txt"));
    const r = await close.response();
    expect(r.headers.connection).toBe("close");
    await close.closedByServer();
    expect(close.pending).toBe(0);

    const old = await connect();
    old.write(`GET /a.txt HTTP/1.0\r\nHost: ${host}\r\n\r\n`);
    expect((await old.response()).body.toString()).toBe("first file");
    await old.closedByServer();

    const oldKeepAlive = await connect();
    oldKeepAlive.write(`GET /a.txt HTTP/1.0\r\nHost: ${host}\r\nConnection: keep-alive\r\n\r\n`.repeat(2));
    expect((await oldKeepAlive.response()).headers.connection).toBe("keep-alive");
    expect((await oldKeepAlive.response()).body.toString()).toBe("first file");
  });

  it("answers a client that pipelines faster than it reads, once it reads", async () => {
    const c = await connect();
    const count = 1000;
    c.socket.pause();
    c.write(get("/text.txt").repeat(count));
    await new Promise((resolve) => setTimeout(resolve, 300));
    c.socket.resume();
    for (let i = 0; i < count; i++) expect((await c.response()).body.length).toBe(text.length);
  });

  it("drops a connection whose head trickles in for longer than the headers timeout", async () => {
    const c = await connect({ headersTimeout: 300 });
    const request = get("/a.txt");
    for (let i = 0; i < 8 && !c.closed; i++) {
      c.write(request[i]!);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await c.closedByServer(2000);
  });

  it("drops an idle connection after the keep-alive timeout", async () => {
    const c = await connect({ keepAliveTimeout: 300 });
    c.write(get("/a.txt"));
    expect((await c.response()).headers["keep-alive"]).toBe("timeout=0");
    await c.closedByServer(2000);
  });

  it("keeps an idle connection for the whole keep-alive timeout, not less", async () => {
    const c = await connect({ keepAliveTimeout: 1000 });
    c.write(get("/a.txt"));
    expect((await c.response()).headers["keep-alive"]).toBe("timeout=1");
    // The sweep looks a few times a second: idle for most of the timeout, still open.
    await new Promise((resolve) => setTimeout(resolve, 900));
    expect(c.closed).toBe(false);
    c.write(get("/a.txt"));
    expect((await c.response()).body.toString()).toBe("first file");
    // A request restarts the count; then the connection goes, within two sweeps of the timeout.
    const answered = Date.now();
    await c.closedByServer(3000);
    expect(Date.now() - answered).toBeGreaterThanOrEqual(1000);
  });

  it("lets the server close while clients keep idle connections open", async () => {
    const c = await connect();
    c.write(get("/a.txt"));
    await c.response();
    const closing = new Promise((resolve) => listening!.close(resolve));
    listening = undefined;
    await closing;
    await c.closedByServer(1000);
  });
});
