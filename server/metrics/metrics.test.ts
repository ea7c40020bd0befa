// /metrics: off unless configured, the token on the main port, the loopback listener, and what
// the numbers say after real traffic through Berth's HTTP server (the edge's own HTTP/1.1 layer
// and node:http), real publishes and the job tables, on both databases. Every scrape is read
// with a strict parser of the exposition format.
import http from "node:http";
import { eq, sql } from "drizzle-orm";
import { pino } from "pino";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { METRICS, PROCESS_METRICS } from "../../common/metrics";
import { deploymentChecks } from "../db/schema";
import { TestDnsServer } from "../test/dnsServer";
import { activeDomain } from "../test/domains";
import { deployFiles } from "../test/deploys";
import { ownerWithSite } from "../test/factories";
import { parsePrometheusText, sampleValue, type Family } from "../test/prometheusText";
import { RawConnection } from "../test/rawHttp";
import { hostOf } from "../test/sites";
import { DRIVERS, getTestServer, TEST_APP_URL, type ListeningServer, type TestServer } from "../test/support";
import { bearerMatches, startMetricsListener, type MetricsServer } from "./serve";

const TOKEN = "metrics-token-0123456789abcdef";
const log = pino({ level: "silent" });
const DASHBOARD_HOST = new URL(TEST_APP_URL).host;

function get(
  port: number,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, path, headers: { host: DASHBOARD_HOST, ...headers }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }));
    });
    req.on("error", reject);
    req.end();
  });
}

const scrape = async (server: TestServer) => parsePrometheusText(await server.ctx.metrics.exposition!.text());
const value = (families: Map<string, Family>, name: string, labels: Record<string, string> = {}) => sampleValue(families, name, labels) ?? 0;

describe("bearerMatches", () => {
  it("takes the exact token after Bearer, in any case of the scheme, and nothing else", () => {
    expect(bearerMatches(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(bearerMatches(`bearer ${TOKEN}`, TOKEN)).toBe(true);
    for (const wrong of [
      undefined,
      "",
      TOKEN,
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(1)}`,
      `Basic ${TOKEN}`,
      "Bearer ",
      `Bearer ${TOKEN} extra`,
    ]) {
      expect(bearerMatches(wrong, TOKEN), String(wrong)).toBe(false);
    }
  });
});

describe.each(DRIVERS)("metrics (%s)", (driver) => {
  let server: TestServer;
  let listening: ListeningServer;
  let dns: TestDnsServer;

  beforeAll(async () => {
    dns = await TestDnsServer.start();
    server = await getTestServer(driver, { env: { BERTH_METRICS_TOKEN: TOKEN, BERTH_DNS_SERVERS: dns.address } });
    listening = await server.listen();
  });
  afterAll(async () => {
    await server.close();
    await dns.close();
  });
  afterEach(() => server.ctx.domains.settled());

  it("is not served on the main port without BERTH_METRICS_TOKEN", async () => {
    const plain = await getTestServer(driver);
    try {
      // Nothing but the counts is kept: prom-client is not even loaded.
      expect(plain.ctx.metrics.exposition).toBeUndefined();
      const port = (await plain.listen()).port;
      expect((await get(port, "/metrics")).status).toBe(404);
      expect((await get(port, "/metrics", { authorization: `Bearer ${TOKEN}` })).status).toBe(404);
    } finally {
      await plain.close();
    }
  });

  it("asks for the token on the main port, and serves the exposition format to its bearer", async () => {
    for (const authorization of [undefined, "Bearer wrong-token-0123456789", `Basic ${TOKEN}`]) {
      const refused = await get(listening.port, "/metrics", authorization ? { authorization } : {});
      expect(refused.status, authorization).toBe(401);
      expect(refused.headers["www-authenticate"]).toMatch(/^Bearer/);
      expect(refused.text).not.toContain("berth_");
    }
    const answer = await get(listening.port, "/metrics", { authorization: `Bearer ${TOKEN}` });
    expect(answer.status).toBe(200);
    expect(answer.headers["content-type"]).toBe("text/plain; version=0.0.4; charset=utf-8");
    expect(answer.headers["cache-control"]).toBe("no-store");
    const families = parsePrometheusText(answer.text);
    // Every metric of the list is served, as its documented type, with its documented help.
    const served =
      driver === "postgres"
        ? METRICS.filter((m) => m.name !== "berth_db_queries_in_flight")
        : METRICS.filter((m) => !m.name.startsWith("berth_db_pool"));
    for (const doc of [...served, ...PROCESS_METRICS]) {
      expect(families.get(doc.name)?.type, doc.name).toBe(doc.type);
    }
    for (const doc of served) expect(families.get(doc.name)?.help).toBe(doc.help);
    // And nothing of Berth's own is left out of the list (the process metrics are prom-client's).
    const documented = new Set(METRICS.map((m) => m.name));
    const own = [...families.keys()].filter((name) => !/^berth_(process|nodejs)_/.test(name));
    expect(own.filter((name) => !documented.has(name))).toEqual([]);
    for (const name of families.keys()) expect(name).toMatch(/^berth_/);
  });

  it("serves it without the token on a loopback listener of its own, and asks for it elsewhere", async () => {
    let listener: MetricsServer | undefined;
    try {
      listener = await startMetricsListener(server.ctx.metrics.exposition!, { host: "127.0.0.1", port: 0, loopback: true }, TOKEN, log);
      const answer = await get(listener.port, "/metrics");
      expect(answer.status).toBe(200);
      expect(value(parsePrometheusText(answer.text), "berth_process_resident_memory_bytes")).toBeGreaterThan(0);
      expect((await get(listener.port, "/")).status).toBe(404);
      expect((await get(listener.port, "/api/health")).status).toBe(404);
      await listener.close();
      // Every address: allowed only because a token is set, so the listener asks for it.
      listener = await startMetricsListener(server.ctx.metrics.exposition!, { host: "0.0.0.0", port: 0, loopback: false }, TOKEN, log);
      expect((await get(listener.port, "/metrics")).status).toBe(401);
      expect((await get(listener.port, "/metrics", { authorization: `Bearer ${TOKEN}` })).status).toBe(200);
    } finally {
      await listener?.close();
    }
  });

  it("counts N site requests as N, by status class and host kind, with the bytes sent", async () => {
    const { site } = await ownerWithSite(server, "pro", [
      { name: "index.html", data: "<h1>Counted</h1>" },
      { name: "app.js", data: "console.log('counted')" },
    ]);
    const host = hostOf(site.url);
    const before = await scrape(server);
    const connection = await RawConnection.open(await server.edge.port());
    let bytes = 0;
    const N = 7;
    try {
      for (let i = 0; i < N; i++) {
        connection.write(`GET /app.js HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
        const response = await connection.response();
        expect(response.status).toBe(200);
        bytes += Buffer.byteLength(response.head, "latin1") + 4 + response.body.length;
      }
      connection.write(`GET /missing.png HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
      const missing = await connection.response();
      expect(missing.status).toBe(404);
      bytes += Buffer.byteLength(missing.head, "latin1") + 4 + missing.body.length;
      // A Range hands the connection to node:http, which counts it as well.
      connection.write(`GET /app.js HTTP/1.1\r\nHost: ${host}\r\nRange: bytes=0-6\r\n\r\n`);
      const partial = await connection.response();
      expect(partial.status).toBe(206);
      bytes += Buffer.byteLength(partial.head, "latin1") + 4 + partial.body.length;
    } finally {
      connection.close();
    }
    expect((await get(listening.port, "/api/health")).status).toBe(200);

    const after = await scrape(server);
    const moved = (name: string, labels: Record<string, string>) => value(after, name, labels) - value(before, name, labels);
    expect(moved("berth_http_requests_total", { host_kind: "site", status_class: "2xx" })).toBe(N + 1);
    expect(moved("berth_http_requests_total", { host_kind: "site", status_class: "4xx" })).toBe(1);
    expect(moved("berth_http_requests_total", { host_kind: "custom_domain", status_class: "2xx" })).toBe(0);
    expect(moved("berth_http_response_bytes_total", { host_kind: "site" })).toBe(bytes);
    expect(moved("berth_http_requests_total", { host_kind: "dashboard", status_class: "2xx" })).toBe(1);
    // The first GET read app.js from the store; the rest and the Range found it in memory.
    expect(moved("berth_edge_cache_requests_total", { result: "miss" })).toBe(1);
    expect(moved("berth_edge_cache_requests_total", { result: "hit" })).toBe(N);
    // Every status class and host kind is a series from the start.
    for (const host_kind of ["dashboard", "site", "custom_domain"]) {
      for (const status_class of ["1xx", "2xx", "3xx", "4xx", "5xx"]) {
        expect(sampleValue(after, "berth_http_requests_total", { host_kind, status_class }), `${host_kind} ${status_class}`).toBeTypeOf("number");
      }
    }
  });

  it("counts a custom domain's requests under its own host kind", async () => {
    const { client, site } = await ownerWithSite(server, "pro", [{ name: "index.html", data: "<h1>Shop</h1>" }]);
    const hostname = `www.metrics-${driver}.test`;
    await activeDomain(server, dns, client, site.id, hostname);
    const before = await scrape(server);
    for (let i = 0; i < 3; i++) expect((await server.edge.get(hostname, "/")).status).toBe(200);
    const after = await scrape(server);
    const labels = { host_kind: "custom_domain", status_class: "2xx" };
    expect(value(after, "berth_http_requests_total", labels) - value(before, "berth_http_requests_total", labels)).toBe(3);
  });

  it("times each publish, from the dashboard and through the API", async () => {
    const count = (families: Map<string, Family>, source: string) =>
      value(families, "berth_deploy_duration_seconds_count", { source, outcome: "success" });
    const before = await scrape(server);
    const { client, site } = await ownerWithSite(server, "free", [{ name: "index.html", data: "<h1>v1</h1>" }]);
    await deployFiles(client, site.id, [{ path: "index.html", content: "<h1>v2</h1>" }]);
    // A _redirects line that does not parse fails the publish; the previous version stays live.
    await deployFiles(client, site.id, [{ path: "_redirects", content: "/a /b 999\n" }]).catch(() => undefined);
    const after = await scrape(server);
    expect(count(after, "dashboard") - count(before, "dashboard")).toBe(1);
    expect(count(after, "api") - count(before, "api")).toBe(1);
    const failed = (families: Map<string, Family>) => value(families, "berth_deploy_duration_seconds_count", { source: "api", outcome: "failed" });
    expect(failed(after) - failed(before)).toBe(1);
    const sum = (families: Map<string, Family>) => value(families, "berth_deploy_duration_seconds_sum", { source: "dashboard", outcome: "success" });
    expect(sum(after) - sum(before)).toBeGreaterThan(0);
    expect(sum(after) - sum(before)).toBeLessThan(60);
  });

  it("reads the job queues when scraped", async () => {
    const checks = (families: Map<string, Family>, name: string) => value(families, name, { queue: "deployment_checks" });
    const before = await scrape(server);
    // No worker runs in tests, so every publish leaves its check waiting.
    const { site } = await ownerWithSite(server, "free", [{ name: "index.html", data: "<h1>queued</h1>" }]);
    const middle = await scrape(server);
    expect(checks(middle, "berth_jobs_waiting") - checks(before, "berth_jobs_waiting")).toBe(1);
    await server.ctx.db.update(deploymentChecks).set({ status: "failed" }).where(eq(deploymentChecks.deployment_id, site.live_deployment_id!));
    const after = await scrape(server);
    expect(checks(after, "berth_jobs_waiting") - checks(before, "berth_jobs_waiting")).toBe(0);
    expect(checks(after, "berth_jobs_failed") - checks(before, "berth_jobs_failed")).toBe(1);
    for (const queue of ["webhook_deliveries", "deployment_checks", "custom_domains"]) {
      expect(sampleValue(after, "berth_jobs_waiting", { queue }), queue).toBeTypeOf("number");
      expect(sampleValue(after, "berth_jobs_failed", { queue }), queue).toBeTypeOf("number");
    }
  });

  it("tells how busy the database is", async () => {
    if (driver === "postgres") {
      const families = await scrape(server);
      const busy = value(families, "berth_db_pool_connections", { state: "busy" });
      const idle = value(families, "berth_db_pool_connections", { state: "idle" });
      expect(busy + idle).toBeGreaterThanOrEqual(1);
      expect(busy + idle).toBeLessThanOrEqual(10);
      expect(sampleValue(families, "berth_db_pool_waiting")).toBe(0);
      return;
    }
    // The notices and domain reloads earlier tests' publishes set off run in the background: they
    // finish first, so that only this test's statements are under way.
    await server.notices.settled();
    await server.ctx.domains.settled();
    // A transaction held open and a statement waiting behind it: two under way as the scrape starts.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const held = server.ctx.db.transaction(async () => {
      entered();
      await gate;
    });
    await inside;
    const waiting = Promise.resolve(server.ctx.db.execute(sql`select 1`));
    await new Promise((resolve) => setImmediate(resolve));
    // Its own read of the queues waits for the transaction too, so it is let go once the scrape has begun.
    const scraping = server.ctx.metrics.exposition!.text();
    release();
    await Promise.all([held, waiting]);
    const during = parsePrometheusText(await scraping);
    expect(value(during, "berth_db_queries_in_flight")).toBe(2);
    expect(value(await scrape(server), "berth_db_queries_in_flight")).toBe(0);
  });
});

describe("metrics with edge workers", () => {
  it("adds what the worker threads answered to what the main thread did", async () => {
    const server = await getTestServer("pglite", { edgeWorkers: 2, env: { BERTH_METRICS_TOKEN: TOKEN } });
    try {
      expect(server.edgeWorkers?.count).toBe(2);
      const { site } = await ownerWithSite(server, "free", [{ name: "index.html", data: "<h1>Threads</h1>" }]);
      const host = hostOf(site.url);
      const listening = await server.listen();
      const served = async () => (await server.edgeWorkers!.report()).reduce((sum, r) => sum + r.requests, 0);
      const before = await scrape(server);
      const servedBefore = await served();
      const N = 6;
      let bytes = 0;
      // A connection each: every one moves to a worker before its first answer.
      for (let i = 0; i < N; i++) {
        const connection = await RawConnection.open(listening.port);
        try {
          connection.write(`GET / HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
          const response = await connection.response();
          expect(response.status).toBe(200);
          bytes += Buffer.byteLength(response.head, "latin1") + 4 + response.body.length;
        } finally {
          connection.close();
        }
      }
      expect((await served()) - servedBefore).toBe(N);
      const after = await scrape(server);
      const moved = (name: string, labels: Record<string, string>) => value(after, name, labels) - value(before, name, labels);
      expect(moved("berth_http_requests_total", { host_kind: "site", status_class: "2xx" })).toBe(N);
      expect(moved("berth_http_response_bytes_total", { host_kind: "site" })).toBe(bytes);
      expect(moved("berth_edge_cache_requests_total", { result: "hit" }) + moved("berth_edge_cache_requests_total", { result: "miss" })).toBe(N);
    } finally {
      await server.close();
    }
  }, 120_000);
});
