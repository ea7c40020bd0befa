// Analytics end to end: known requests served by the real edge (its own HTTP/1.1 layer and
// node:http for a Range) across two sites, from two visitors and a bot; the collector's flush and
// the roll-up; then the API's figures, exactly, and a 404 for everyone but the owner.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "drizzle-orm";
import type { AnalyticsResponse } from "../../../common/analytics";
import { DRIVERS, getTestServer, type TestClient, type TestServer } from "../../test/support";
import { signedInClient } from "../../test/factories";
import { createSiteWith, hostOf, zipOf } from "../../test/sites";
import { rowsOf } from "../../db/rows";
import { rollUpAnalytics } from "../../services/rollUpAnalytics";

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";
const BOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const ALICE = "203.0.113.7";
const BOB = "198.51.100.20";

describe.each(DRIVERS)("site analytics (%s)", (driver) => {
  let server: TestServer;
  let owner: TestClient;
  let collector: NonNullable<TestServer["analytics"]>;
  let port: number;

  beforeAll(async () => {
    // Visitors are simulated with X-Forwarded-For, as behind a proxy.
    server = await getTestServer(driver, { env: { BERTH_TRUST_PROXY: "true" }, analytics: true });
    collector = server.analytics!;
    port = (await server.listen()).port;
    owner = (await signedInClient(server)).client;
  });
  afterAll(() => server.close());

  /** One request on its own connection; resolves with the status and every byte the server sent. */
  function visit(host: string, path: string, headers: Record<string, string>): Promise<{ status: number; bytes: number; etag: string }> {
    return new Promise((resolve, reject) => {
      const req = http.request({ host: "127.0.0.1", port, path, agent: false, headers: { host, connection: "close", ...headers } }, (res) => {
        res.resume();
        res.on("end", () => {
          // Wait for the close so every byte of the answer has been read from the socket.
          res.socket.once("close", () => resolve({ status: res.statusCode!, bytes: res.socket.bytesRead, etag: String(res.headers.etag) }));
        });
      });
      req.on("error", reject);
      req.end();
    });
  }

  it("counts views, visitors, bandwidth and top pages exactly, for the owner only", async () => {
    const pages = await zipOf([
      { name: "index.html", data: "<h1>Home</h1>" },
      { name: "about.html", data: "<h1>About</h1>" },
      { name: "app.js", data: "console.log('hi')".repeat(100) },
    ]);
    const first = await createSiteWith(owner, { name: "site.zip", content: pages, type: "application/zip" });
    const second = await createSiteWith(owner, { name: "index.html", content: "<h1>Second</h1>", type: "text/html" });
    const one = hostOf(first.url);
    const two = hostOf(second.url);
    const alice = { "user-agent": BROWSER, "x-forwarded-for": ALICE };
    const bob = { "user-agent": `${BROWSER} Firefox`, "x-forwarded-for": BOB };
    const bot = { "user-agent": BOT, "x-forwarded-for": "192.0.2.1" };

    const bobsFirst = await visit(one, "/?utm_source=mail", bob);
    const served = [
      // Site one: alice reads two pages (one from a search engine), loads the script, hits a broken link.
      await visit(one, "/", { ...alice, referer: "https://search.example/q?berth" }),
      await visit(one, "/about", { ...alice, referer: `http://${one}/` }),
      await visit(one, "/app.js", alice),
      await visit(one, "/old-page", alice),
      // Bob: the home page twice (the second time revalidated: 304), then a byte range (node:http).
      bobsFirst,
      await visit(one, "/", { ...bob, "if-none-match": bobsFirst.etag }),
      await visit(one, "/app.js", { ...bob, range: "bytes=0-9" }),
      // A crawler: counted apart.
      await visit(one, "/", bot),
      await visit(one, "/about", bot),
      // Site two: alice once.
      await visit(two, "/", alice),
    ];
    expect(served.map((s) => s.status)).toEqual([200, 200, 200, 404, 200, 304, 206, 200, 200, 200]);

    await collector.flush();
    await rollUpAnalytics(server.ctx);

    const report = async (siteId: string, client = owner) => client.get(`/api/sites/${siteId}/analytics?range=24h`);
    const res = await report(first.id);
    expect(res.statusCode).toBe(200);
    const body = res.json<AnalyticsResponse>();
    const bytesOfOne = served.slice(0, 9).reduce((sum, s) => sum + s.bytes, 0);
    // Views: alice's 2 pages, bob's 200 and 304 of the home page. Visitors: alice and bob.
    expect(body.totals).toEqual({ views: 4, visitors: 2, bandwidth: bytesOfOne, bot_requests: 2 });
    expect(body.top_pages).toEqual([
      { key: "/", count: 3 },
      { key: "/about", count: 1 },
    ]);
    expect(body.top_referrers).toEqual([{ key: "search.example", count: 1 }]);
    expect(body.not_found).toEqual([{ key: "/old-page", count: 1 }]);
    expect(body.statuses).toEqual(
      [
        { key: "200", count: 6 },
        { key: "206", count: 1 },
        { key: "304", count: 1 },
        { key: "404", count: 1 },
      ].sort((a, b) => b.count - a.count || a.key.localeCompare(b.key)),
    );
    expect(body.has_data).toBe(true);
    expect(body.series).toHaveLength(24);
    expect(body.series.reduce((sum, p) => sum + p.views, 0)).toBe(4);
    expect(body.series.at(-1)!.views).toBe(4);

    const other = (await report(second.id)).json<AnalyticsResponse>();
    expect(other.totals).toEqual({ views: 1, visitors: 1, bandwidth: served[9]!.bytes, bot_requests: 0 });

    // The list and the overview.
    const list = (await owner.get("/api/sites")).json<{ views_7d: Record<string, number> }>();
    expect(list.views_7d).toEqual({ [first.id]: 4, [second.id]: 1 });
    const stats = (await owner.get("/api/stats")).json<{ bandwidth_30d: number }>();
    expect(stats.bandwidth_30d).toBe(served.reduce((sum, s) => sum + s.bytes, 0));

    // Nobody else sees a figure: another user gets the same 404 as for a site that does not exist.
    const stranger = (await signedInClient(server)).client;
    expect((await report(first.id, stranger)).statusCode).toBe(404);
    expect((await stranger.get("/api/sites")).json<{ views_7d: Record<string, number> }>().views_7d).toEqual({});
    expect((await stranger.get("/api/stats")).json<{ bandwidth_30d: number }>().bandwidth_30d).toBe(0);
    expect((await server.client().get(`/api/sites/${first.id}/analytics`)).statusCode).toBe(401);

    // No address is stored anywhere, only salted hashes.
    const stored = JSON.stringify(rowsOf(await server.ctx.db.execute(sql`select * from analytics_events`)));
    for (const address of [ALICE, BOB]) expect(stored).not.toContain(address);
  });

  it("refuses an unknown range with 400, and answers an empty report for a new site", async () => {
    const site = await createSiteWith(owner, { name: "index.html", content: "<p>new</p>", type: "text/html" });
    expect((await owner.get(`/api/sites/${site.id}/analytics?range=5y`)).statusCode).toBe(400);
    const body = (await owner.get(`/api/sites/${site.id}/analytics?range=12m`)).json<AnalyticsResponse>();
    expect(body).toMatchObject({ range: "12m", unit: "day", has_data: false, totals: { views: 0, visitors: 0, bandwidth: 0, bot_requests: 0 } });
    expect(body.series).toHaveLength(365);
    expect(body.change).toEqual({ views: null, visitors: null, bandwidth: null });
  });
});
