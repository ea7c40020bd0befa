// Clients that hold connections open, over real sockets against the real app and edge in the HTTP
// server Berth runs: a body that stops arriving is answered 408 and closed wherever it goes (the
// contact form, an upload, the edge's password form); one address cannot hold more than its cap
// of connections while other addresses are still served; an upload the client aborts is logged
// at info, not as an error with a stack. The layer under test sits below the database, so PGlite
// alone.
import { Writable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ownerWithSite } from "../test/factories";
import { hostOf, multipartBody } from "../test/sites";
import { RawConnection } from "../test/rawHttp";
import { getTestServer, TEST_APP_URL, type ListeningServer, type TestClient, type TestServer } from "../test/support";

const BODY_TIMEOUT_MS = 1000;
const CAP = 5;
const APP_HOST = new URL(TEST_APP_URL).host;

interface LogLine {
  level: number;
  msg: string;
  err?: { stack?: string };
}

describe("slow and greedy clients", () => {
  let server: TestServer;
  let http: ListeningServer;
  const lines: LogLine[] = [];
  const open: RawConnection[] = [];

  beforeAll(async () => {
    const capture = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split("\n").filter(Boolean)) lines.push(JSON.parse(line) as LogLine);
        done();
      },
    });
    server = await getTestServer("pglite", { log: pino({ level: "info" }, capture) });
    http = await server.listen({ bodyTimeoutMs: BODY_TIMEOUT_MS, maxConnectionsPerAddress: CAP });
  });
  afterAll(async () => {
    for (const connection of open.splice(0)) connection.close();
    await server.close();
  });

  async function connect(localAddress = "127.0.0.1"): Promise<RawConnection> {
    const connection = await RawConnection.open(http.port, { localAddress });
    open.push(connection);
    return connection;
  }

  const cookieOf = (client: TestClient) => [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; ");

  /** A request head for `length` body bytes, from a signed-in browser on the dashboard's origin. */
  const head = (method: string, path: string, length: number, extra: Record<string, string> = {}, host = APP_HOST) =>
    `${method} ${path} HTTP/1.1\r\nHost: ${host}\r\nOrigin: ${TEST_APP_URL}\r\nContent-Length: ${length}\r\n` +
    Object.entries(extra)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join("") +
    "\r\n";

  async function expectTimedOut(c: RawConnection): Promise<void> {
    const started = Date.now();
    const answer = await c.response({ timeoutMs: BODY_TIMEOUT_MS * 5 });
    expect(answer.status).toBe(408);
    expect(JSON.parse(answer.body.toString()).error.code).toBe("request_timeout");
    await c.closedByServer(1000);
    expect(Date.now() - started).toBeLessThan(BODY_TIMEOUT_MS * 3);
  }

  describe("a body that stops arriving", () => {
    it("on the contact form: 408 and closed within the timeout (node:http alone would hold it 300 s)", async () => {
      const c = await connect();
      c.write(head("POST", "/api/contact", 400, { "Content-Type": "application/json" }) + '{"name":"Slow","email":"slow@exa');
      await expectTimedOut(c);
    });

    it("in an upload: 408, closed, and logged at info", async () => {
      const { client, site } = await ownerWithSite(server, "free", [{ name: "index.html", data: "<h1>Hi</h1>" }]);
      const { body, contentType } = multipartBody({}, { name: "big.html", content: "x".repeat(200_000), type: "text/html" });
      const c = await connect();
      c.write(head("POST", `/api/sites/${site.id}/files`, body.length, { "Content-Type": contentType, Cookie: cookieOf(client) }));
      c.write(body.subarray(0, 50_000));
      const logged = lines.length;
      await expectTimedOut(c);
      await sleep(200);
      const after = lines.slice(logged);
      expect(after.some((l) => l.level === 30 && /no progress/.test(l.msg))).toBe(true);
      // The upload handler's failure is the client's doing: info, not an error with a stack.
      expect(after.some((l) => l.level === 30 && /not received in full/.test(l.msg))).toBe(true);
      expect(after.filter((l) => l.level >= 50)).toEqual([]);
      // Nothing of it was recorded.
      const names = (await client.get(`/api/sites/${site.id}/files`)).json().files.map((f: { filename: string }) => f.filename);
      expect(names).toContain("index.html");
      expect(names).not.toContain("big.html");
    });

    it("on the edge's password form of a protected site: 408 and closed", async () => {
      const { client, site } = await ownerWithSite(server, "pro", [{ name: "index.html", data: "<h1>Secret</h1>" }]);
      expect((await client.request("PUT", `/api/sites/${site.id}/password`, { json: { password: "a long site password" } })).statusCode).toBe(200);
      const c = await connect();
      const logged = lines.length;
      c.write(head("POST", "/.berth/password", 300, { "Content-Type": "application/x-www-form-urlencoded" }, hostOf(site.url)) + "password=a%20lo");
      await expectTimedOut(c);
      await sleep(200);
      const after = lines.slice(logged);
      expect(after.some((l) => l.level === 30 && /form not received in full/.test(l.msg))).toBe(true);
      expect(after.filter((l) => l.level >= 50)).toEqual([]);
    });
  });

  describe("connections per client address", () => {
    const health = `GET /api/health HTTP/1.1\r\nHost: ${APP_HOST}\r\n\r\n`;

    async function served(c: RawConnection): Promise<boolean> {
      c.write(health);
      return c.response({ timeoutMs: 3000 }).then(
        (r) => r.status === 200,
        () => false,
      );
    }

    it("closes the connections over the cap at once; other addresses are still served; a closed one frees its place", async () => {
      const held = [];
      for (let i = 0; i < CAP; i++) {
        const c = await connect("127.0.0.1");
        expect(await served(c), `connection ${i + 1}`).toBe(true);
        held.push(c);
      }
      for (let i = 0; i < 3; i++) {
        const extra = await connect("127.0.0.1");
        await extra.closedByServer(1000);
        expect(await served(extra)).toBe(false);
      }
      // Linux routes all of 127.0.0.0/8 to loopback: another client address.
      const other = await connect("127.0.0.2");
      expect(await served(other)).toBe(true);
      // The held connections are still served, on and on (keep-alive).
      expect(await served(held[0]!)).toBe(true);

      held[0]!.close();
      await sleep(100);
      expect(await served(await connect("127.0.0.1"))).toBe(true);
      for (const c of held) c.close();
    });
  });

  describe("an upload the client aborts", () => {
    it("is logged at info, without an error or a stack", async () => {
      const { client, site } = await ownerWithSite(server, "free", [{ name: "index.html", data: "<h1>Hi</h1>" }]);
      const { body, contentType } = multipartBody({}, { name: "big.html", content: "y".repeat(500_000), type: "text/html" });
      const c = await connect();
      const logged = lines.length;
      c.write(head("POST", `/api/sites/${site.id}/files`, body.length, { "Content-Type": contentType, Cookie: cookieOf(client) }));
      c.write(body.subarray(0, 100_000));
      await sleep(300);
      c.close();
      // The server notices, fails the request and logs it.
      const deadline = Date.now() + 5000;
      while (!lines.slice(logged).some((l) => /not received in full/.test(l.msg)) && Date.now() < deadline) await sleep(50);
      const after = lines.slice(logged);
      const line = after.find((l) => /not received in full/.test(l.msg));
      expect(line?.level).toBe(30);
      expect(line?.err).toBeUndefined();
      expect(after.filter((l) => l.level >= 50)).toEqual([]);
    });
  });
});
