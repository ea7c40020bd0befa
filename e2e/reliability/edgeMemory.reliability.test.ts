// The edge's memory under a flood of made-up requests: what anyone can send without an account.
// A real server process with a small V8 heap and a small BERTH_EDGE_CACHE_MB gets, twice over,
// distinct long paths on a site and on its version hosts, long redirect targets and queries,
// versions that do not exist, distinct long host names, over-long hosts and targets, and distinct
// long user agents and referrers. It must stay up and keep serving, and its heap after a full
// collection (GET /memory on the admin socket) must have grown by no more than the budget plus a
// fixed overhead. BERTH_FLOOD_HEAP_MB sets the heap limit (to measure a build that needs more).
import http from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SiteResponse } from "../../common/sites";
import { ApiClient, parse, request } from "./support/client";
import { textFile, zipOf } from "./support/contents";
import { CrashableBerth } from "./support/crashable";
import { createRandom, seedFromEnv } from "./support/random";
import { flood, generate, type FloodRequest } from "./support/flood";
import type { MemoryReport } from "../../server/memoryReport";

const BUDGET_MB = 16;
const HEAP_MB = Number(process.env.BERTH_FLOOD_HEAP_MB ?? 128);
/**
 * What the heap may grow by besides the budget: code V8 compiles while serving, the database
 * client's and the HTTP layers' own structures, and what the accounting cannot see exactly.
 */
const OVERHEAD_MB = 16;
const ROUNDS = 2;
const VERSIONS = 3;
/** Under the edge's limit on a request target (8 KB), so every one of them is served. */
const LONG = 8000;
const SEED = seedFromEnv();

const MB = 1024 * 1024;

function memoryOf(berth: CrashableBerth): Promise<MemoryReport> {
  return new Promise((resolve, reject) => {
    const req = http.get({ socketPath: path.join(berth.dataDir, "admin.sock"), path: "/memory", agent: false }, (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => (body += chunk.toString()));
      res.on("end", () =>
        res.statusCode === 200 ? resolve(JSON.parse(body) as MemoryReport) : reject(new Error(`GET /memory: ${res.statusCode} ${body}`)),
      );
    });
    req.on("error", reject);
  });
}

const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;

describe("the edge's memory under a flood", () => {
  let berth: CrashableBerth;
  let scratch: string;
  beforeAll(() => {
    scratch = mkdtempSync(path.join(os.tmpdir(), "berth-flood-"));
    berth = new CrashableBerth({ BERTH_EDGE_CACHE_MB: String(BUDGET_MB), NODE_OPTIONS: `--max-old-space-size=${HEAP_MB}` });
  });
  afterAll(async () => {
    await berth.destroy();
    rmSync(scratch, { recursive: true, force: true });
  });

  it(`stays up, and its heap grows by at most the budget (${BUDGET_MB} MB) and ${OVERHEAD_MB} MB`, async () => {
    const random = createRandom(SEED);
    await berth.start();
    const api = new ApiClient(berth);
    await api.signUp(`flood-${Date.now()}@example.com`, "flood test password");
    const version = (n: number) =>
      zipOf(random, scratch, [
        textFile(random, "index.html", `home v${n}`, 3000),
        textFile(random, "about.html", `about v${n}`, 2000),
        { path: "_redirects", bytes: Buffer.from("/go/* /to/:splat 302\n"), type: "text/plain" },
      ]);
    const { subdomain } = parse<{ subdomain: string }>(await api.json("POST", "/api/subdomains/reserve"));
    const created = await api.multipart(
      "POST",
      "/api/sites",
      { name: "Flooded", subdomain },
      { name: "v1.zip", content: await version(1), type: "application/zip" },
    );
    expect(created.status, created.body.toString()).toBe(201);
    const site = parse<SiteResponse>(created);
    for (let n = 2; n <= VERSIONS; n++) {
      const upload = await api.multipart(
        "POST",
        `/api/sites/${site.id}/files`,
        { extract: "true" },
        { name: `v${n}.zip`, content: await version(n), type: "application/zip" },
      );
      expect(upload.status, upload.body.toString()).toBe(201);
    }
    const port = berth.port;
    const host = `${site.subdomain}.localhost:${port}`;
    const home = async () => (await request(port, "GET", "/", { host })).body.toString();
    expect(await home()).toContain(`home v${VERSIONS}`);

    const filler = (i: number, length: number) => `${i}-${random.int(0, 1e9)}-`.padEnd(length, "x");
    const label = () => random.bytes(32).toString("hex").slice(0, 63);
    const rounds: Array<[string, Iterable<FloodRequest>]> = [];
    for (let round = 0; round < ROUNDS; round++) {
      rounds.push(
        // Paths the site does not have, and redirects whose target carries the path.
        ["paths", generate(3000, (i) => ({ host, path: `/${filler(i, LONG)}` }))],
        ["redirects", generate(1500, (i) => ({ host, path: `/go/${filler(i, LONG)}` }))],
        // A redirect with a query: its answer is made afresh for every request.
        ["queries", generate(1500, (i) => ({ host, path: `/go/x?${filler(i, LONG)}` }))],
        // Every version host, and versions that do not exist.
        ...Array.from({ length: VERSIONS }, (_, v): [string, Iterable<FloodRequest>] => [
          `v${v + 1}`,
          generate(1500, (i) => ({ host: `${site.subdomain}--v${v + 1}.localhost:${port}`, path: `/${filler(i, LONG)}` })),
        ]),
        [
          "missing versions",
          generate(300, () => ({ host: `${site.subdomain}--v${random.int(VERSIONS + 1, 999_999_999)}.localhost:${port}`, path: "/" })),
        ],
        // Host names nobody serves, as long as DNS allows (three labels of 63), and longer.
        ["unknown hosts", generate(3000, () => ({ host: `${label()}.${label()}.${label()}.localhost:${port}`, path: "/" }))],
        ["too-long hosts", generate(500, () => ({ host: `${label()}.${label()}.${label()}.${label()}.${label()}.localhost:${port}`, path: "/" }))],
        // Targets over the limit.
        ["too-long targets", generate(300, (i) => ({ host, path: `/${filler(i, 9000)}` }))],
        // Visitors that differ in every field analytics keeps.
        [
          "visitors",
          generate(2000, (i) => ({
            host,
            path: "/",
            headers: { "user-agent": `Mozilla/5.0 ${filler(i, 4000)}`, referer: `https://${filler(i, 60)}.example/${filler(i, 3000)}` },
          })),
        ],
      );
    }

    const before = await memoryOf(berth);
    const statuses = new Map<number, number>();
    const took: string[] = [];
    for (const [name, requests] of rounds) {
      const start = performance.now();
      const answered = await flood(port, requests).catch((error: unknown) => {
        throw new Error(`the flood of ${name} failed (${String(error)}); the server said:\n${berth.output().slice(-3000)}`);
      });
      for (const [status, count] of answered) statuses.set(status, (statuses.get(status) ?? 0) + count);
      took.push(`${name} ${((performance.now() - start) / 1000).toFixed(1)} s`);
    }
    console.log(`took: ${took.join(", ")}`);
    // Analytics write once a second: let the last batch go.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const after = await memoryOf(berth);
    const grown = after.heapUsed - before.heapUsed;
    console.log(
      `flood: ${[...statuses].map(([s, c]) => `${c}× ${s}`).join(", ")}; heap after a collection ${mb(before.heapUsed)} → ${mb(after.heapUsed)} ` +
        `(+${mb(grown)}, limit ${mb(after.heapLimit)}), external ${mb(before.external)} → ${mb(after.external)}, rss ${mb(before.rss)} → ${mb(after.rss)}`,
    );
    if (after.edge) console.log(`the edge's accounting: ${JSON.stringify(after.edge)}`);

    expect(berth.output()).not.toMatch(/heap out of memory/i);
    expect(await home()).toContain(`home v${VERSIONS}`);
    expect(statuses.get(500) ?? 0).toBe(0);
    expect(statuses.get(414)).toBe(300 * ROUNDS);
    expect(statuses.get(400)).toBe(500 * ROUNDS);
    expect(grown).toBeLessThan((BUDGET_MB + OVERHEAD_MB) * MB);
  });
});
