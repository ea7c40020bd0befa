// Atomic deploys under load (issue 8): while several keep-alive clients request every file of a
// site as fast as they can, 50 versions are published and 10 rollbacks made through the API.
// Every file of version n starts with the marker [v<n>:<path>], and its SHA-256 is known, so each
// response must be byte for byte one version's file: never a mix, never cut short. There must be
// no 404 and no 5xx, and no response may serve a version that was not live at some moment while
// it was under way (a stale cache would). Runs on PGlite and on PostgreSQL; the Free plan's
// history of 10 means old versions are pruned, bytes and all, while they are being read.
import { createHash, randomBytes } from "node:crypto";
import http from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DeploymentListResponse, SiteResponse } from "../../common/sites";
import { ApiClient, getSiteFile, parse } from "./support/client";
import { urlPathOf, zipOf, type SiteFile } from "./support/contents";
import { CrashableBerth } from "./support/crashable";
import { ADMIN_URL, createScratchDatabase, postgresReachable, scratchName, type ScratchDatabase } from "../../server/test/scratchDatabase";
import { createRandom, seedFromEnv } from "./support/random";

const VERSIONS = 50;
const ROLLBACKS = 10;
const READERS = 6;
const SEED = seedFromEnv();

/** Small pages, files around the edge's thresholds (64 KB ready answers, 1 MB cached blobs), and a streamed one. */
const FILES: ReadonlyArray<{ path: string; size: number; binary: boolean }> = [
  { path: "index.html", size: 3_000, binary: false },
  { path: "about.html", size: 9_000, binary: false },
  { path: "docs/index.html", size: 1_500, binary: false },
  { path: "docs/guide.html", size: 40_000, binary: false },
  { path: "css/site.css", size: 20_000, binary: false },
  { path: "js/app.js", size: 70_000, binary: false },
  { path: "js/vendor.js", size: 300_000, binary: false },
  { path: "img/logo.png", size: 120_000, binary: true },
  { path: "img/photo.jpg", size: 900_000, binary: true },
  { path: "media/brochure.pdf", size: 2_500_000, binary: true },
  ...["a", "b", "c", "d", "e", "f"].map((n) => ({ path: `p/${n}.html`, size: 400, binary: false })),
];

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

function fileOf(path: string, size: number, binary: boolean, version: number): SiteFile {
  const marker = `[v${version}:${path}]\n`;
  const type = path.endsWith(".html")
    ? "text/html"
    : path.endsWith(".css")
      ? "text/css"
      : path.endsWith(".js")
        ? "text/javascript"
        : "application/octet-stream";
  if (binary) return { path, type, bytes: Buffer.concat([Buffer.from(marker), randomBytes(size - marker.length)]) };
  let text = marker;
  for (let line = 0; text.length < size; line++) text += `<p>${marker.trim()} line ${line}: ${randomBytes(6).toString("hex")}</p>\n`;
  return { path, type, bytes: Buffer.from(text.slice(0, size)) };
}

interface Change {
  /** The content version live once it is done. */
  version: number;
  startedAt: number;
  endedAt: number;
  label: string;
}

interface Seen {
  version: number;
  startedAt: number;
  endedAt: number;
  path: string;
}

const postgresUp = await postgresReachable();
if (!postgresUp) console.warn(`atomic deploys: no PostgreSQL at ${ADMIN_URL}; only PGlite runs`);

describe.each(["pglite", "postgres"] as const)("atomic deploys under load on %s", (driver) => {
  let berth: CrashableBerth | undefined;
  let scratchDb: ScratchDatabase | undefined;
  let scratch: string;
  beforeAll(() => {
    scratch = mkdtempSync(path.join(os.tmpdir(), "berth-atomic-"));
  });
  afterAll(async () => {
    await berth?.destroy();
    await scratchDb?.drop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it.skipIf(driver === "postgres" && !postgresUp)(
    `serves whole versions only, with no 404 or 5xx, through ${VERSIONS} publishes and ${ROLLBACKS} rollbacks`,
    async () => {
      const random = createRandom(SEED);
      if (driver === "postgres") scratchDb = await createScratchDatabase(scratchName("berth_reliability_atomic"));
      berth = new CrashableBerth(scratchDb ? { DATABASE_URL: scratchDb.url } : {});
      await berth.start();
      const api = new ApiClient(berth);
      await api.signUp(`atomic-${Date.now()}@example.com`, "atomic deploys password");

      /** path@version → SHA-256 of what was uploaded. */
      const expected = new Map<string, string>();
      const zipFor = async (version: number) => {
        const files = FILES.map((f) => fileOf(f.path, f.size, f.binary, version));
        for (const f of files) expected.set(`${f.path}@${version}`, sha256(f.bytes));
        return zipOf(random, scratch, files);
      };

      const { subdomain } = parse<{ subdomain: string }>(await api.json("POST", "/api/subdomains/reserve"));
      const created = await api.multipart(
        "POST",
        "/api/sites",
        { name: "Under load", subdomain },
        { name: "v1.zip", content: await zipFor(1), type: "application/zip" },
      );
      expect(created.status, created.body.toString()).toBe(201);
      const site = parse<SiteResponse>(created);
      const host = `${site.subdomain}.localhost:${berth.port}`;
      const port = berth.port;

      // ── The readers ────────────────────────────────────────────────────────────────────────────
      const problems: string[] = [];
      const seen: Seen[] = [];
      const statuses = new Map<number, number>();
      let stop = false;
      const reader = async (n: number) => {
        const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
        const order = FILES.map((f) => f.path);
        try {
          while (!stop) {
            for (const filePath of order) {
              // Some clients take the brotli and gzip forms the worker makes after each publish.
              const encoding = n % 3 === 1 ? "br" : n % 3 === 2 ? "gzip" : undefined;
              const startedAt = performance.now();
              const answer = await getSiteFile(port, host, urlPathOf(filePath).replace(/index\.html$/, ""), encoding, agent);
              const endedAt = performance.now();
              statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
              const marker = /^\[v(\d+):([^\]]+)\]\n/.exec(answer.body.subarray(0, 200).toString("latin1"));
              if (answer.status !== 200 || !marker || marker[2] !== filePath) {
                problems.push(`${filePath}: ${answer.status} ${answer.body.subarray(0, 60).toString("latin1")}`);
                continue;
              }
              const version = Number(marker[1]);
              if (sha256(answer.body) !== expected.get(`${filePath}@${version}`))
                problems.push(`${filePath}: not wholly version ${version} (${answer.body.length} bytes)`);
              seen.push({ version, startedAt, endedAt, path: filePath });
            }
          }
        } finally {
          agent.destroy();
        }
      };
      const readers = Array.from({ length: READERS }, (_, n) => reader(n));

      // ── The writer: 50 publishes, 10 rollbacks among them ─────────────────────────────────────
      const changes: Change[] = [{ version: 1, startedAt: -Infinity, endedAt: -Infinity, label: "created" }];
      /** deployment id → the content version it holds */
      const contentOf = new Map<string, number>();
      const started = performance.now();
      const deploymentsList = async () => parse<DeploymentListResponse>(await api.send("GET", `/api/sites/${site.id}/deployments`)).deployments;
      contentOf.set((await deploymentsList())[0]!.id, 1);
      const rollbackAfter = new Set<number>();
      while (rollbackAfter.size < ROLLBACKS) rollbackAfter.add(random.int(3, VERSIONS + 1));
      for (let version = 2; version <= VERSIONS + 1; version++) {
        const zip = await zipFor(version);
        const startedAt = performance.now();
        const upload = await api.multipart(
          "POST",
          `/api/sites/${site.id}/files`,
          { extract: "true" },
          { name: `v${version}.zip`, content: zip, type: "application/zip" },
        );
        expect(upload.status, upload.body.toString()).toBe(201);
        const deployment = parse<{ deployment: { id: string; status: string } }>(upload).deployment;
        expect(deployment.status).toBe("success");
        contentOf.set(deployment.id, version);
        changes.push({ version, startedAt, endedAt: performance.now(), label: `publish of v${version}` });

        if (rollbackAfter.has(version)) {
          const kept = (await deploymentsList()).filter((d) => d.status === "success" && !d.is_live && contentOf.has(d.id));
          const target = random.pick(kept);
          const rollbackStarted = performance.now();
          const rolledBack = await api.json("POST", `/api/sites/${site.id}/deployments/${target.id}/rollback`);
          expect(rolledBack.status, rolledBack.body.toString()).toBe(200);
          changes.push({
            version: contentOf.get(target.id)!,
            startedAt: rollbackStarted,
            endedAt: performance.now(),
            label: `rollback to v${contentOf.get(target.id)}`,
          });
        }
        // Let the readers see every version for a moment.
        await new Promise((resolve) => setTimeout(resolve, random.int(0, 150)));
      }
      const writerMs = performance.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 500));
      stop = true;
      await Promise.all(readers);

      // ── No response served a version that was not live at some moment while it was under way ──
      // Version of change i is live from the start of change i until the end of change i + 1.
      const stale: string[] = [];
      for (const s of seen) {
        const possible = changes.some(
          (c, i) => c.version === s.version && c.startedAt <= s.endedAt && (changes[i + 1]?.endedAt ?? Infinity) >= s.startedAt,
        );
        if (!possible) stale.push(`${s.path} v${s.version} at ${(s.startedAt - started).toFixed(0)}–${(s.endedAt - started).toFixed(0)} ms`);
      }

      const versions = [...new Set(seen.map((s) => s.version))].sort((a, b) => a - b);
      const requests = [...statuses.values()].reduce((a, b) => a + b, 0);
      console.log(
        [
          `atomic deploys on ${driver}: seed ${SEED}; ${VERSIONS} publishes and ${ROLLBACKS} rollbacks in ${(writerMs / 1000).toFixed(1)} s (${changes
            .filter((c) => c.label.startsWith("rollback"))
            .map((c) => c.label)
            .join(", ")})`,
          `  ${requests} requests by ${READERS} keep-alive clients (${((requests / (performance.now() - started)) * 1000).toFixed(0)}/s); statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
          `  ${versions.length} of ${VERSIONS + 1} versions seen: ${versions.join(" ")}`,
          `  problems ${problems.length}, stale answers ${stale.length}`,
        ].join("\n"),
      );
      expect(problems.slice(0, 20)).toEqual([]);
      expect(stale.slice(0, 20)).toEqual([]);
      expect(statuses.get(200)).toBe(requests);
      // The readers saw most versions: the test watched the changes rather than one of them.
      expect(versions.length).toBeGreaterThan(VERSIONS / 2);
    },
  );
});
