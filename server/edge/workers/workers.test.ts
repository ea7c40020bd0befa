// Edge workers (BERTH_EDGE_WORKERS ≥ 2) over real sockets, on PGlite and PostgreSQL: connections
// for site hosts are served by the workers, which hear every change as the single edge does
// (local and relayed from another node), count each visit once, give back what is not theirs to
// answer (another host, a Range, a form), and drain on close.
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DRIVERS, getTestServer, type ListeningServer, type TestClient, type TestServer } from "../../test/support";
import { ownerWithSite, signedInClient } from "../../test/factories";
import { createSiteWith, hostOf, postMultipart, zipOf } from "../../test/sites";
import { RawConnection, type RawResponse } from "../../test/rawHttp";
import { rowsOf } from "../../db/rows";
import { shareLinks, sites } from "../../db/schema";
import { hashSitePassword } from "../../auth/sitePasswords";
import type { SiteResponse } from "../../../common/sites";
import type { ShareLinkResponse } from "../../../common/shareLinks";

const byEdgeLayer = (r: RawResponse) => r.head.includes("\r\nconnection: ");
const pageZip = async (text: string) => ({ name: "site.zip", content: await zipOf([{ name: "page.html", data: text }]), type: "application/zip" });

describe.each(DRIVERS)("edge workers (%s)", (driver) => {
  let server: TestServer;
  let client: TestClient;
  let site: SiteResponse;
  let host: string;
  let listening: ListeningServer;
  const open: RawConnection[] = [];

  const connect = async () => {
    const connection = await RawConnection.open(listening.port);
    open.push(connection);
    return connection;
  };
  const get = (connection: RawConnection, path: string, hostHeader = host, extra = "") =>
    connection.write(`GET ${path} HTTP/1.1\r\nHost: ${hostHeader}\r\n${extra}\r\n`);
  const ask = async (connection: RawConnection, path: string, hostHeader = host, extra = "") => {
    get(connection, path, hostHeader, extra);
    return connection.response();
  };
  const workerRequests = async () => (await server.edgeWorkers!.report()).reduce((sum, r) => sum + r.requests, 0);

  beforeAll(async () => {
    server = await getTestServer(driver, { edgeWorkers: 2, analytics: true });
    client = (await signedInClient(server)).client;
    const zip = await zipOf([
      { name: "index.html", data: "<h1>Home</h1>" },
      { name: "a.txt", data: "first file" },
      { name: "digits.txt", data: "0123456789" },
    ]);
    site = await createSiteWith(client, { name: "site.zip", content: zip, type: "application/zip" });
    host = hostOf(site.url);
    listening = await server.listen();
  });
  afterAll(async () => {
    for (const connection of open.splice(0)) connection.close();
    await server.close();
  });

  it("serves site hosts from the workers, each connection from one of them", async () => {
    expect(server.edgeWorkers?.count).toBe(2);
    const before = await workerRequests();
    const connections = await Promise.all([connect(), connect(), connect(), connect()]);
    for (const connection of connections) {
      for (let i = 0; i < 3; i++) {
        const answer = await ask(connection, "/a.txt");
        expect(answer.status).toBe(200);
        expect(answer.body.toString()).toBe("first file");
      }
    }
    expect((await workerRequests()) - before).toBe(12);
    const reports = await server.edgeWorkers!.report();
    // The fewest open connections, in turns: both workers got some.
    expect(reports.every((r) => r.connections >= 2)).toBe(true);
    expect(new Set(reports.map((r) => r.threadId)).size).toBe(2);
    expect(reports.every((r) => r.paths.streamReads === 0 && r.paths.sharedReads === r.connections)).toBe(true);
  });

  it("sees a publish, a rollback, a password and a deletion through the API at the next request", async () => {
    const { client: owner, user } = await signedInClient(server);
    await server.ctx.db.execute(sql`update profiles set plan = 'pro' where id = ${user.id}`);
    const fresh = await createSiteWith(owner, await pageZip("version one"));
    const freshHost = hostOf(fresh.url);
    const connection = await connect();
    const first = await ask(connection, "/page", freshHost);
    expect(first.body.toString()).toBe("version one");
    const before = await workerRequests();

    await postMultipart(owner, `/api/sites/${fresh.id}/files`, {}, { name: "page.html", content: "version two", type: "text/html" });
    expect((await ask(connection, "/page", freshHost)).body.toString()).toBe("version two");

    const list = (await owner.get(`/api/sites/${fresh.id}/deployments`)).json().deployments as Array<{ id: string; version: number }>;
    const v1 = list.find((d) => d.version === 1)!;
    expect((await owner.post(`/api/sites/${fresh.id}/deployments/${v1.id}/rollback`, {})).statusCode).toBe(200);
    expect((await ask(connection, "/page", freshHost)).body.toString()).toBe("version one");

    expect((await owner.request("PUT", `/api/sites/${fresh.id}/password`, { json: { password: "correct horse" } })).statusCode).toBe(200);
    expect((await ask(connection, "/page", freshHost)).status).toBe(401);
    expect((await owner.delete(`/api/sites/${fresh.id}/password`)).statusCode).toBe(200);
    expect((await ask(connection, "/page", freshHost)).status).toBe(200);

    expect((await owner.delete(`/api/sites/${fresh.id}`)).statusCode).toBeLessThan(300);
    expect((await ask(connection, "/page", freshHost)).status).toBe(404);
    // All on the one connection, in a worker.
    expect((await workerRequests()) - before).toBe(5);
  });

  it("hears events relayed from another node", async () => {
    const { client: owner, user } = await signedInClient(server);
    const other = await createSiteWith(owner, await pageZip("open"));
    const otherHost = hostOf(other.url);
    const connection = await connect();
    expect((await ask(connection, "/page", otherHost)).status).toBe(200);
    // Another node set a password: this node's database shows it, its caches do not yet.
    await server.ctx.db
      .update(sites)
      .set({ password_hash: await hashSitePassword("elsewhere") })
      .where(eq(sites.id, other.id));
    expect((await ask(connection, "/page", otherHost)).status).toBe(200);
    server.ctx.events.relay("site", { userId: user.id, siteId: other.id, subdomain: other.subdomain });
    expect((await ask(connection, "/page", otherHost)).status).toBe(401);
  });

  it("answers a connection that goes from a site host to the dashboard host and back, pipelined too", async () => {
    const connection = await connect();
    const before = await workerRequests();
    expect((await ask(connection, "/a.txt")).body.toString()).toBe("first file");
    const health = await ask(connection, "/api/health", "localhost:8080");
    expect(health.status).toBe(200);
    expect(health.body.toString()).toContain("ok");
    // Back on the main thread for good: the site is still served, through node:http.
    const again = await ask(connection, "/a.txt");
    expect(again.body.toString()).toBe("first file");
    expect(byEdgeLayer(again)).toBe(false);

    const pipelined = await connect();
    pipelined.write(
      `GET /a.txt HTTP/1.1\r\nHost: ${host}\r\n\r\n` +
        `GET /api/health HTTP/1.1\r\nHost: localhost:8080\r\n\r\n` +
        `GET /digits.txt HTTP/1.1\r\nHost: ${host}\r\n\r\n`,
    );
    const answers = [await pipelined.response(), await pipelined.response(), await pipelined.response()];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(answers[0]!.body.toString()).toBe("first file");
    expect(answers[1]!.body.toString()).toContain("ok");
    expect(answers[2]!.body.toString()).toBe("0123456789");
    // The first request of each connection was a worker's.
    expect((await workerRequests()) - before).toBe(2);
  });

  it("serves Ranges, the password form and share links on connections that began in a worker", async () => {
    const connection = await connect();
    expect((await ask(connection, "/digits.txt")).status).toBe(200);
    const range = await ask(connection, "/digits.txt", host, "Range: bytes=2-4\r\n");
    expect(range.status).toBe(206);
    expect(range.body.toString()).toBe("234");

    const { client: owner, site: protectedSite } = await ownerWithSite(server, "pro", [{ name: "index.html", data: "<h1>Secret</h1>" }]);
    const protectedHost = hostOf(protectedSite.url);
    expect((await owner.request("PUT", `/api/sites/${protectedSite.id}/password`, { json: { password: "correct horse" } })).statusCode).toBe(200);
    const visitor = await connect();
    const page = await ask(visitor, "/", protectedHost);
    expect(page.status).toBe(401);
    const form = "password=correct+horse&next=%2F";
    visitor.write(
      `POST /.berth/password HTTP/1.1\r\nHost: ${protectedHost}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${form.length}\r\n\r\n${form}`,
    );
    const entered = await visitor.response();
    expect(entered.status).toBe(303);
    const pass = entered.headers["set-cookie"]!.split(";")[0]!;
    const inside = await connect();
    const secret = await ask(inside, "/", protectedHost, `Cookie: ${pass}\r\n`);
    expect(secret.status).toBe(200);
    expect(secret.body.toString()).toContain("Secret");

    expect((await owner.request("PUT", `/api/sites/${protectedSite.id}/visibility`, { json: { visibility: "private" } })).statusCode).toBe(200);
    const made = await owner.post(`/api/sites/${protectedSite.id}/share-links`, { name: "For a friend", maxViews: 1 });
    expect(made.statusCode, made.body).toBe(201);
    const link = made.json<ShareLinkResponse>();
    const friend = await connect();
    const before = await workerRequests();
    const opened = await ask(friend, new URL(link.url).pathname, protectedHost, "User-Agent: Test browser\r\n");
    expect(opened.status).toBe(303);
    const share = opened.headers["set-cookie"]!.split(";")[0]!;
    const shared = await ask(friend, "/", protectedHost, `Cookie: ${share}\r\n`);
    expect(shared.status).toBe(200);
    expect((await workerRequests()) - before).toBe(2);
    const [row] = await server.ctx.db.select().from(shareLinks).where(eq(shareLinks.id, link.id));
    expect(row!.views).toBe(1);
    // The open that spent the last view reached the owner's notices, from the worker.
    await server.notices.settled();
    await expect
      .poll(async () => (await owner.get("/api/notifications")).json().notifications.some((n: { kind: string }) => n.kind === "share_link_used_up"))
      .toBe(true);
  });

  it("counts each visit once, whichever thread answered it", async () => {
    const { client: owner } = await signedInClient(server);
    const counted = await createSiteWith(owner, await pageZip("counted"));
    const countedHost = hostOf(counted.url);
    const connections = await Promise.all(Array.from({ length: 6 }, () => connect()));
    let sent = 0;
    await Promise.all(
      connections.map(async (connection, i) => {
        for (let n = 0; n < 10; n++) {
          expect((await ask(connection, `/page?n=${n}`, countedHost, `User-Agent: Visitor ${i}\r\n`)).status).toBe(200);
          sent++;
        }
      }),
    );
    // One more through the main thread's node:http (a Range after a give-back).
    expect((await ask(connections[0]!, "/page", countedHost, "Range: bytes=0-1\r\n")).status).toBe(206);
    sent++;
    const total = async () =>
      Number(
        rowsOf<{ n: string | number | null }>(
          await server.ctx.db.execute(
            sql`select sum((e->>'requests')::int) as n from analytics_batches b, jsonb_array_elements(b.events) e where b.site_id = ${counted.id}`,
          ),
        )[0]?.n ?? 0,
      );
    await server.analytics!.flush();
    await expect.poll(total, { timeout: 5000 }).toBe(sent);
    // Two more flush periods: nothing is written twice.
    await new Promise((resolve) => setTimeout(resolve, 2200));
    await server.analytics!.flush();
    expect(await total()).toBe(sent);
  });

  it("drains on close: idle connections close, the last visits are written", async () => {
    const { client: owner } = await signedInClient(server);
    const last = await createSiteWith(owner, await pageZip("last"));
    const lastHost = hostOf(last.url);
    const connection = await connect();
    for (let i = 0; i < 5; i++) expect((await ask(connection, "/page", lastHost)).status).toBe(200);
    await server.edgeWorkers!.close();
    await connection.closedByServer();
    const written = rowsOf<{ n: string | number | null }>(
      await server.ctx.db.execute(
        sql`select sum((e->>'requests')::int) as n from analytics_batches b, jsonb_array_elements(b.events) e where b.site_id = ${last.id}`,
      ),
    )[0]?.n;
    expect(Number(written)).toBe(5);
  });
});

describe("edge workers started on demand, as a process starts them", () => {
  let server: TestServer;
  let host: string;
  let listening: ListeningServer;
  const open: RawConnection[] = [];

  beforeAll(async () => {
    server = await getTestServer("pglite", { edgeWorkers: 2, edgeWorkersOnDemand: true });
    const { client } = await signedInClient(server);
    host = hostOf((await createSiteWith(client, await pageZip("on demand"))).url);
    listening = await server.listen();
  });
  afterAll(async () => {
    for (const connection of open.splice(0)) connection.close();
    await server.close();
  });

  it("holds no thread until a site is visited, serves that visit itself, then hands later ones to the threads", async () => {
    expect(await server.edgeWorkers!.report()).toEqual([]);
    const first = await RawConnection.open(listening.port);
    open.push(first);
    first.write(`GET /page HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
    expect((await first.response()).body.toString()).toBe("on demand");
    // The threads start in the background; once both are ready, new connections go to them.
    await expect.poll(async () => (await server.edgeWorkers!.report()).length, { timeout: 60_000, interval: 200 }).toBe(2);
    const later = await RawConnection.open(listening.port);
    open.push(later);
    later.write(`GET /page HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
    expect((await later.response()).body.toString()).toBe("on demand");
    const reports = await server.edgeWorkers!.report();
    expect(reports.reduce((sum, r) => sum + r.requests, 0)).toBe(1);
  });
});
