// The orphan sweeper: what a crash leaves behind goes once it is older than the grace period, and
// nothing anyone refers to (or is about to) ever does. The crash-safety suite
// (e2e/reliability/crash.reliability.test.ts) checks the same against a server killed at random.
import { mkdirSync, utimesSync, writeFileSync, existsSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DRIVERS, getTestServer, type TestServer } from "../test/support";
import { signedInClient } from "../test/factories";
import { createSiteWith, htmlFile } from "../test/sites";
import { blobs, blobVariants, deployments } from "../db/schema";
import { registerBlobs } from "../db/repositories/blobs";
import { rowsOf } from "../db/rows";
import { saveAvatar } from "./avatars";
import { ABANDONED_DEPLOYMENT_MS, sweepIntervalMs, sweepOrphans } from "./sweepOrphans";
import type { DeploymentChanged } from "../events";

const GRACE_MS = 60_000;
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

describe.each(DRIVERS)("sweeping crash leftovers (%s)", (driver) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer(driver, { env: { BERTH_ORPHAN_GRACE_SECONDS: String(GRACE_MS / 1000) } });
  });
  afterAll(() => server.close());

  const put = async (text: string) => (await server.ctx.blobs.put(Readable.from([Buffer.from(text)]), { maxBytes: 1 << 20 })).sha256;
  const stored = async (sha: string) => (await server.ctx.blobs.stat(sha)) !== undefined;
  /** A moment at which everything written so far is older than the grace period. */
  const later = () => new Date(Date.now() + GRACE_MS + 5000);

  it("deletes blobs nothing refers to once they are older than the grace period, and only those", async () => {
    const { client, user } = await signedInClient(server);
    await createSiteWith(client, htmlFile(`<h1>kept ${driver}</h1>`));
    const pictureSha = (await saveAvatar(server.ctx, user.id, Buffer.concat([PNG, Buffer.from(driver)]))).sha256;
    const compressed = await put(`a compressed form of the page (${driver})`);
    const [page] = rowsOf<{ sha256: string }>(
      await server.ctx.db.execute(sql`select sha256 from site_files where file_path = 'index.html' order by updated_at desc limit 1`),
    );
    await registerBlobs(server.ctx.db, [{ sha256: compressed, size: 1 }]);
    await server.ctx.db.insert(blobVariants).values({ sha256: page!.sha256, encoding: "gzip", variant_sha256: compressed, size: 1 });

    // A blob with a row but no reference (a release cut short), one without a row (an upload
    // that never committed), and one written just now.
    const released = await put(`released before the crash (${driver})`);
    await registerBlobs(server.ctx.db, [{ sha256: released, size: 1 }]);
    const uncommitted = await put(`uploaded, never committed (${driver})`);

    const early = await sweepOrphans(server.ctx);
    expect(early.blobs).toBe(0);
    expect(await stored(released)).toBe(true);

    const result = await sweepOrphans(server.ctx, later());
    expect(result.blobs).toBeGreaterThanOrEqual(2);
    expect(await stored(released)).toBe(false);
    expect(await stored(uncommitted)).toBe(false);
    expect(await server.ctx.db.select().from(blobs).where(eq(blobs.sha256, released))).toEqual([]);
    for (const sha of [page!.sha256, pictureSha, compressed]) expect(await stored(sha)).toBe(true);
  });

  it("keeps an old orphan that an upload has just stored again", async () => {
    const bytes = `stored twice (${driver})`;
    const sha = await put(bytes);
    // Unreferenced for longer than the grace period; then an upload stores the same bytes, and
    // will record them once it commits.
    const blob = path.join(server.ctx.env.dataDir, "blobs", sha.slice(0, 2), sha.slice(2, 4), sha);
    const old = new Date(Date.now() - 2 * GRACE_MS);
    utimesSync(blob, old, old);
    expect((await server.ctx.blobs.put(Readable.from([Buffer.from(bytes)]), { maxBytes: 100 })).created).toBe(false);
    await sweepOrphans(server.ctx, new Date(Date.now() + GRACE_MS - 5000));
    expect(await stored(sha)).toBe(true);
  });

  it("removes temporary files older than the grace period, of the blob store and of zip uploads", async () => {
    const dirs = [path.join(server.ctx.env.dataDir, "blobs", "tmp"), path.join(server.ctx.env.dataDir, "tmp")];
    const old = new Date(Date.now() - GRACE_MS - 5000);
    for (const dir of dirs) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, `old-${driver}`), "left by a kill");
      utimesSync(path.join(dir, `old-${driver}`), old, old);
      writeFileSync(path.join(dir, `young-${driver}`), "an upload under way");
    }
    expect((await sweepOrphans(server.ctx)).temporaries).toBeGreaterThanOrEqual(2);
    for (const dir of dirs) {
      expect(existsSync(path.join(dir, `old-${driver}`))).toBe(false);
      expect(existsSync(path.join(dir, `young-${driver}`))).toBe(true);
    }
  });

  it("fails deployments left in progress by a process that died, and says so", async () => {
    const { client } = await signedInClient(server);
    const site = await createSiteWith(client, htmlFile("<h1>stuck</h1>"));
    const [stuck] = await server.ctx.db
      .insert(deployments)
      .values({ site_id: site.id, version: 99, status: "in_progress", created_at: new Date(Date.now() - ABANDONED_DEPLOYMENT_MS - 1000) })
      .returning();
    const [running] = await server.ctx.db.insert(deployments).values({ site_id: site.id, version: 100, status: "in_progress" }).returning();
    const heard: DeploymentChanged[] = [];
    const listen = (change: DeploymentChanged) => heard.push(change);
    server.ctx.events.on("deployment", listen);
    try {
      await sweepOrphans(server.ctx);
    } finally {
      server.ctx.events.off("deployment", listen);
    }
    const status = async (id: string) => (await server.ctx.db.select().from(deployments).where(eq(deployments.id, id)))[0]!.status;
    expect(await status(stuck!.id)).toBe("failed");
    expect(await status(running!.id)).toBe("in_progress");
    expect(heard.map((h) => [h.siteId, h.deployment.id, h.deployment.status])).toEqual([[site.id, stuck!.id, "failed"]]);
  });

  it("drops compressed forms of blobs nothing refers to, then their bytes", async () => {
    const source = await put(`released while being compressed (${driver})`);
    const variant = await put(`its gzip form (${driver})`);
    await registerBlobs(server.ctx.db, [
      { sha256: source, size: 1 },
      { sha256: variant, size: 1 },
    ]);
    await server.ctx.db.insert(blobVariants).values({ sha256: source, encoding: "gzip", variant_sha256: variant, size: 1 });
    expect((await sweepOrphans(server.ctx, later())).variants).toBe(1);
    expect(await server.ctx.db.select().from(blobVariants).where(eq(blobVariants.sha256, source))).toEqual([]);
    expect(await stored(source)).toBe(false);
    expect(await stored(variant)).toBe(false);
  });
});

describe("the sweep interval", () => {
  it("is half the grace period, between a second and an hour", () => {
    expect(sweepIntervalMs(2000)).toBe(1000);
    expect(sweepIntervalMs(500)).toBe(1000);
    expect(sweepIntervalMs(600_000)).toBe(300_000);
    expect(sweepIntervalMs(86_400_000)).toBe(3_600_000);
  });
});
