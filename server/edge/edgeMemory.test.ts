// What the edge remembers under made-up requests, in process: real sites, real sockets, and the
// heap measured after a full collection. Each bound is checked twice: by the edge's own
// accounting (memory/budget.ts), and by the heap, whose growth must stay within it (the
// accounting must not be below what memory really holds). The flood of a real server process
// with a small heap is e2e/reliability/edgeMemory.reliability.test.ts.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getTestServer, type TestServer } from "../test/support";
import { signedInClient } from "../test/factories";
import { createSiteWith, hostOf, htmlFile, postMultipart, zipOf } from "../test/sites";
import type { SiteResponse } from "../../common/sites";
import { memoryAfterCollection } from "../memoryReport";
import { BerthEvents } from "../events";
import { EdgeMemory } from "./memory/budget";
import { EdgeResolver, MAX_MISSES_PER_HOST } from "./resolver";
import { createHostRouter } from "./hosts";
import { buildManifest } from "./manifest";
import { flat } from "./flatString";

const MB = 1024 * 1024;

/** GETs over a few keep-alive connections; resolves to the count of each status. */
async function sendAll(port: number, requests: Iterable<{ host: string; path: string }>, connections = 4): Promise<Map<number, number>> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const statuses = new Map<number, number>();
  const queue = requests[Symbol.iterator]();
  const worker = async () => {
    for (let next = queue.next(); !next.done; next = queue.next()) {
      const { host, path } = next.value;
      const status = await new Promise<number>((resolve, reject) => {
        const req = http.request({ host: "127.0.0.1", port, path, headers: { host }, agent }, (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode ?? 0));
        });
        req.on("error", reject);
        req.end();
      });
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  agent.destroy();
  return statuses;
}

function* generate<T>(count: number, make: (i: number) => T): Generator<T> {
  for (let i = 0; i < count; i++) yield make(i);
}

function* on(host: string, paths: Iterable<string>): Generator<{ host: string; path: string }> {
  for (const path of paths) yield { host, path };
}

/** The same file asked for by ever longer spellings (`//about`, `///about`, …): each its own route. */
const spellings = (count: number) => generate(count, (i) => `${"/".repeat(i + 1)}about`);

describe("the edge's memory with the smallest budget (8 MB)", () => {
  let server: TestServer;
  let site: SiteResponse;
  let host: string;

  beforeAll(async () => {
    server = await getTestServer("pglite", { env: { BERTH_EDGE_CACHE_MB: "8" } });
    const { client } = await signedInClient(server);
    const zip = await zipOf([
      { name: "index.html", data: "<h1>Home</h1>" },
      { name: "about.html", data: "<h1>About</h1>" },
      { name: "_redirects", data: "/go/* /to/:splat 302\n" },
    ]);
    site = await createSiteWith(client, { name: "site.zip", content: zip, type: "application/zip" });
    host = hostOf(site.url);
  });
  afterAll(() => server.close());

  it("keeps one host's routes within its share of the routes' part, however many paths name its files", async () => {
    const port = await server.edge.port();
    const routes = server.edgeMemory.part("routes");
    const before = memoryAfterCollection();
    const statuses = await sendAll(port, on(host, spellings(3000)));
    expect(statuses.get(200)).toBe(3000);
    const after = memoryAfterCollection();
    // One host may hold a quarter of the routes' part (1 MB of 8 MB): 256 KB.
    expect(routes.used).toBeGreaterThan(0);
    expect(routes.used).toBeLessThanOrEqual(routes.cap / 4);
    // Kept, the 3,000 routes (4.5 million characters of paths) would take some 7 MB.
    expect(after.heapUsed - before.heapUsed).toBeLessThan(2.5 * MB);
    expect((await server.edge.get(host, "/about")).text).toBe("<h1>About</h1>");
  });

  it(`remembers misses for ${MAX_MISSES_PER_HOST} paths of a host at most, and answers the rest all the same`, async () => {
    const port = await server.edge.port();
    const made = generate(500, (i) => `/missing/${i}`);
    const redirected = generate(500, (i) => `/go/${i}`);
    expect((await sendAll(port, on(host, made))).get(404)).toBe(500);
    expect((await sendAll(port, on(host, redirected))).get(302)).toBe(500);
    const served = server.edgeResolver.peek(site.subdomain)!;
    expect(served.misses).toBe(MAX_MISSES_PER_HOST);
    expect([...served.routes.values()].filter((route) => route.miss)).toHaveLength(MAX_MISSES_PER_HOST);
    // The first ones stay (the favicon.ico a browser asks for again and again).
    expect(served.routes.has("/missing/0")).toBe(true);
    expect(served.routes.has("/missing/499")).toBe(false);
    expect((await server.edge.get(host, "/go/somewhere")).headers.location).toBe("/to/somewhere");
    expect((await server.edge.get(host, "/missing/499")).status).toBe(404);
  });

  it("keeps host labels that serve nothing within their part, and serves a site once it exists", async () => {
    const port = await server.edge.port();
    const unknown = server.edgeMemory.part("unknownLabels");
    const hostValues = server.edgeMemory.part("hostValues");
    const label = (i: number) => `${"q".repeat(50)}${i}.${"r".repeat(50)}`;
    const statuses = await sendAll(
      port,
      generate(3000, (i) => ({ host: `${label(i)}.localhost`, path: "/" })),
    );
    expect(statuses.get(404)).toBe(3000);
    expect(unknown.used).toBeGreaterThan(0);
    expect(unknown.used).toBeLessThanOrEqual(unknown.cap);
    expect(hostValues.used).toBeLessThanOrEqual(hostValues.cap);

    // A name remembered as serving nothing serves its site as soon as the site is created.
    const { client } = await signedInClient(server);
    const { subdomain } = (await client.post("/api/subdomains/reserve", {})).json<{ subdomain: string }>();
    expect((await server.edge.get(`${subdomain}.localhost`, "/")).status).toBe(404);
    expect(server.edgeResolver.peek(subdomain)).toBeNull();
    const created = await postMultipart(client, "/api/sites", { name: "New", subdomain }, htmlFile("<h1>New</h1>"));
    expect(created.statusCode).toBe(201);
    expect((await server.edge.get(`${subdomain}.localhost`, "/")).text).toBe("<h1>New</h1>");
  });

  it("remembers every served host's verified cookies within its share of the cookies' part", () => {
    const served = server.edgeResolver.peek(site.subdomain)!;
    const cookies = server.edgeMemory.part("cookies");
    for (let i = 0; i < 5000; i++) served.passes.set(`${site.id}.1.${i}.${"s".repeat(43)}`, Date.now() + 60_000);
    expect(served.passes.size).toBeGreaterThan(100);
    expect(served.passes.bytes).toBeLessThanOrEqual(cookies.cap / 4);
    expect(cookies.used).toBe(served.passes.bytes);
    served.passes.clear();
    expect(cookies.used).toBe(0);
  });

  it("counts nothing any more once every cache is dropped: no host, route or manifest is left uncounted", async () => {
    const port = await server.edge.port();
    await sendAll(port, on(host, spellings(200)));
    await sendAll(port, on(`${site.subdomain}--v1.localhost`, spellings(200)));
    await sendAll(
      port,
      generate(50, (i) => ({ host: `${site.subdomain}--v${i + 2}.localhost`, path: "/" })),
    );
    const usage = server.edgeMemory.usage();
    for (const part of ["routes", "manifests", "servedHosts", "sites", "unknownLabels"] as const) expect(usage[part].used, part).toBeGreaterThan(0);
    server.ctx.events.emit("resync");
    const dropped = server.edgeMemory.usage();
    for (const part of ["routes", "manifests", "servedHosts", "sites", "unknownLabels", "cookies"] as const) expect(dropped[part].used, part).toBe(0);
    expect((await server.edge.get(host, "/about")).text).toBe("<h1>About</h1>");
  });
});

describe("the edge's accounting against the heap", () => {
  let server: TestServer;
  let host: string;

  beforeAll(async () => {
    server = await getTestServer("pglite");
    const { client } = await signedInClient(server);
    const zip = await zipOf([
      { name: "index.html", data: "<h1>Home</h1>" },
      { name: "about.html", data: "<h1>About</h1>" },
    ]);
    host = hostOf((await createSiteWith(client, { name: "site.zip", content: zip, type: "application/zip" })).url);
  });
  afterAll(() => server.close());

  it("never counts a route for less than it holds", async () => {
    const port = await server.edge.port();
    const routes = server.edgeMemory.part("routes");
    await sendAll(port, on(host, ["/about"]));
    const before = memoryAfterCollection();
    const counted = routes.used;
    await sendAll(port, on(host, spellings(2500)));
    const after = memoryAfterCollection();
    const grown = after.heapUsed - before.heapUsed;
    const charged = routes.used - counted;
    expect(grown).toBeGreaterThan(2 * MB);
    expect(charged).toBeGreaterThanOrEqual(grown);
    // …and not wildly more either: paths cost one byte a character, counted as two.
    expect(charged).toBeLessThan(grown * 3);
  });

  it("never counts an unknown label or a Host value for less than it holds", async () => {
    const memory = new EdgeMemory(2048 * MB);
    const resolver = new EdgeResolver(server.ctx.db, new BerthEvents(), memory);
    const router = createHostRouter({ appUrl: "http://localhost:8080", sitesDomain: "localhost", memory });
    const before = memoryAfterCollection();
    for (let i = 0; i < 20_000; i++) {
      const value = `${"a".repeat(40)}${i}.${"b".repeat(40)}.localhost:8080`;
      const label = router.siteLabel(value)!;
      // A label with a dot names no site: no query is made.
      expect(await resolver.resolve(label)).toBeUndefined();
    }
    const after = memoryAfterCollection();
    const charged = memory.part("unknownLabels").used + memory.part("hostValues").used;
    const grown = after.heapUsed - before.heapUsed;
    expect(grown).toBeGreaterThan(2 * MB);
    expect(charged).toBeGreaterThanOrEqual(grown);
    // Both maps count the label, which they share, and request text costs one byte a character.
    expect(charged).toBeLessThan(grown * 4);
  });

  it("never counts a manifest for less than it holds", () => {
    // As the database hands them over: every string its own and in one piece, kept by the
    // manifest; the rows themselves are not.
    const rows = () =>
      Array.from({ length: 20_000 }, (_, i) => ({
        deployment_id: "d",
        path: flat(`assets/section-${i % 50}/file-${i}.js`),
        sha256: flat(`${i}`.padStart(64, "0")),
        size: 1000 + i,
        content_type: flat("text/javascript; charset=utf-8"),
      }));
    const variants = () =>
      Array.from({ length: 20_000 }, (_, i) => [
        { sha256: flat(`${i}`.padStart(64, "0")), encoding: "br" as const, variant_sha256: flat(`${i}`.padStart(64, "b")), size: 500 },
        { sha256: flat(`${i}`.padStart(64, "0")), encoding: "gzip" as const, variant_sha256: flat(`${i}`.padStart(64, "g")), size: 600 },
      ]).flat();
    const deployment = { id: "d", published_at: new Date(), created_at: new Date(), config: null };
    const before = memoryAfterCollection();
    const manifest = buildManifest(deployment, rows(), variants());
    // Each etag is made into one piece when its first answer's head is written (a regular
    // expression checks it): that is what the heap holds once the site has been served.
    for (const file of manifest.files.values()) expect(/^"[0-9]{64}"$/.test(file.etag)).toBe(true);
    const after = memoryAfterCollection();
    const grown = after.heapUsed - before.heapUsed;
    expect(manifest.files.size).toBe(20_000);
    expect(manifest.bytes).toBeGreaterThanOrEqual(grown);
    expect(manifest.bytes).toBeLessThan(grown * 3);
  });
});
