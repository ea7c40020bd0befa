// Compressed forms are kept only when they save enough to be worth a second blob: a tenth of the
// file and at least 512 bytes. Files are made so that each compresses by a known share (checked
// here with zlib first), published through the API, and compressed as after a publish.
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { gzipSync, constants, brotliCompressSync } from "node:zlib";
import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blobVariants, blobs, deploymentFiles } from "../db/schema";
import { signedInClient } from "../test/factories";
import { createSiteWith, zipOf } from "../test/sites";
import { DRIVERS, getTestServer, type TestServer } from "../test/support";
import { minimumSaving, VariantCompressor } from "./compressVariants";

/** `size` bytes drawn from `alphabet` characters, reproducibly: entropy sets how well they compress. */
function text(size: number, alphabet: number, seed: number): Buffer {
  const out = Buffer.alloc(size);
  // mulberry32: no pattern a compressor's long window could find, unlike a plain LCG's low bits.
  let state = seed >>> 0;
  for (let i = 0; i < size; i++) {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    out[i] = 33 + (((t ^ (t >>> 14)) >>> 0) % alphabet);
  }
  return out;
}

const saved = (original: Buffer, compressed: Buffer) => original.length - compressed.length;
const gzip9 = (data: Buffer) => gzipSync(data, { level: 9 });

describe("minimumSaving", () => {
  it("is a tenth of the file, and never under 512 bytes", () => {
    expect(minimumSaving(1024)).toBe(512);
    expect(minimumSaving(5120)).toBe(512);
    expect(minimumSaving(10_000)).toBe(1000);
    expect(minimumSaving(10_001)).toBe(1001);
  });
});

describe.each(DRIVERS)("compressed forms worth keeping (%s)", (driver) => {
  let server: TestServer;
  // Saves over 512 bytes, but less than a tenth: about 7.3 bits of entropy in 8.
  const slight = text(20_000, 160, 1);
  // Saves a quarter, but under 512 bytes: small.
  const small = text(1500, 40, 2);
  // Saves most of it.
  const html = Buffer.from("<p>Berth hosts this page.</p>\n".repeat(200));

  beforeAll(async () => {
    server = await getTestServer(driver);
  });
  afterAll(() => server.close());

  /** A one-page site whose page `marker` makes unique: its digest, and a reader of its compressed forms. */
  async function siteWithPage(marker: string) {
    const { client } = await signedInClient(server);
    const site = await createSiteWith(client, {
      name: "site.zip",
      content: await zipOf([{ name: "index.html", data: Buffer.concat([html, Buffer.from(marker)]) }]),
      type: "application/zip",
    });
    const [file] = await server.ctx.db.select().from(deploymentFiles).where(eq(deploymentFiles.deployment_id, site.live_deployment_id!));
    const sha256 = file!.sha256;
    const variantsOf = () => server.ctx.db.select().from(blobVariants).where(eq(blobVariants.sha256, sha256));
    return { client, site, sha256, variantsOf };
  }

  /** Each form's encoding, and whether it was kept. */
  const forms = (rows: { encoding: string; variant_sha256: string | null }[]) => rows.map((v) => [v.encoding, v.variant_sha256 !== null]).sort();

  it("checks its premises with zlib", () => {
    expect(saved(slight, gzip9(slight))).toBeGreaterThan(512);
    expect(saved(slight, gzip9(slight))).toBeLessThan(slight.length / 10);
    const brotli = brotliCompressSync(slight, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
    expect(saved(slight, brotli)).toBeLessThan(slight.length / 10);
    expect(saved(small, gzip9(small))).toBeGreaterThan(small.length / 10);
    expect(saved(small, gzip9(small))).toBeLessThan(512);
  });

  it("stores no form that saves too little, and both forms of a file that compresses well", async () => {
    const { client } = await signedInClient(server);
    const zip = await zipOf([
      { name: "index.html", data: html },
      { name: "slight.txt", data: slight },
      { name: "small.txt", data: small },
    ]);
    const site = await createSiteWith(client, { name: "site.zip", content: zip, type: "application/zip" });
    await server.compressor.kick();

    const files = await server.ctx.db.select().from(deploymentFiles).where(eq(deploymentFiles.deployment_id, site.live_deployment_id!));
    const shaOf = (path: string) => files.find((f) => f.path === path)!.sha256;
    const variantsOf = async (path: string) =>
      (
        await server.ctx.db
          .select()
          .from(blobVariants)
          .where(eq(blobVariants.sha256, shaOf(path)))
      )
        .map((v) => ({ encoding: v.encoding, stored: v.variant_sha256 !== null, size: v.size }))
        .sort((a, b) => a.encoding.localeCompare(b.encoding));

    // Considered (so not tried again), and nothing stored.
    expect(await variantsOf("slight.txt")).toEqual([
      { encoding: "br", stored: false, size: null },
      { encoding: "gzip", stored: false, size: null },
    ]);
    expect(await variantsOf("small.txt")).toEqual([
      { encoding: "br", stored: false, size: null },
      { encoding: "gzip", stored: false, size: null },
    ]);

    const kept = await variantsOf("index.html");
    expect(kept.map((v) => [v.encoding, v.stored])).toEqual([
      ["br", true],
      ["gzip", true],
    ]);
    const [br, gzip] = kept;
    expect(gzip!.size!).toBeLessThanOrEqual(html.length - minimumSaving(html.length));
    // brotli is kept only when it beats gzip's form, which the edge would otherwise send.
    expect(br!.size!).toBeLessThan(gzip!.size!);
    // The variant blobs are registered as blobs: the disk use counts them.
    const variantShas = (
      await server.ctx.db
        .select()
        .from(blobVariants)
        .where(eq(blobVariants.sha256, shaOf("index.html")))
    ).map((v) => v.variant_sha256!);
    expect(await server.ctx.db.select().from(blobs).where(inArray(blobs.sha256, variantShas))).toHaveLength(2);
  });

  it("settles files of types that never compress without compressing them, and tells the edge only of new forms", async () => {
    const { client } = await signedInClient(server);
    // Text-like bytes, so that only the type keeps them from being compressed.
    const zip = await zipOf([
      { name: "photo.png", data: Buffer.concat([html, Buffer.from("png")]) },
      { name: "data.bin", data: Buffer.concat([html, Buffer.from("bin")]) },
      { name: "index.html", data: Buffer.concat([html, Buffer.from("index")]) },
    ]);
    const site = await createSiteWith(client, { name: "site.zip", content: zip, type: "application/zip" });
    const told: string[][] = [];
    const listen = (event: { shas: string[] }) => void told.push(event.shas);
    server.ctx.events.on("variants", listen);
    try {
      await server.compressor.kick();
    } finally {
      server.ctx.events.off("variants", listen);
    }
    const files = await server.ctx.db.select().from(deploymentFiles).where(eq(deploymentFiles.deployment_id, site.live_deployment_id!));
    const shaOf = (path: string) => files.find((f) => f.path === path)!.sha256;
    const rows = await server.ctx.db
      .select()
      .from(blobVariants)
      .where(inArray(blobVariants.sha256, [shaOf("photo.png"), shaOf("data.bin")]));
    expect(rows).toHaveLength(4);
    expect(rows.every((v) => v.variant_sha256 === null && v.size === null)).toBe(true);
    expect(told.flat()).toEqual([shaOf("index.html")]);
  });

  it("on a stop, abandons the form being made without a temporary file left, and the next start makes it", async () => {
    const { client } = await signedInClient(server);
    // Large enough that gzip at level 9 is still writing when the stop comes.
    const big = text(6 * 1024 * 1024, 60, 3);
    const zip = await zipOf([{ name: "big.txt", data: big }]);
    const site = await createSiteWith(client, { name: "big.zip", content: zip, type: "application/zip" });
    const [file] = await server.ctx.db.select().from(deploymentFiles).where(eq(deploymentFiles.deployment_id, site.live_deployment_id!));
    const tmpDir = path.join(server.ctx.env.dataDir, "blobs", "tmp");
    const temporaries = () => readdirSync(tmpDir).filter((name) => !name.startsWith("sweep-"));

    const compressor = new VariantCompressor(server.ctx);
    const run = compressor.kick();
    for (let waited = 0; temporaries().length === 0; waited += 1) {
      if (waited > 10_000) throw new Error("the compressor never started writing");
      await sleep(1);
    }
    await compressor.stop();
    await run;
    expect(temporaries()).toEqual([]);
    const variantsOfBig = () => server.ctx.db.select().from(blobVariants).where(eq(blobVariants.sha256, file!.sha256));
    expect(await variantsOfBig()).toEqual([]);
    // Stopped for good: a publish's kick during the shutdown starts nothing.
    await compressor.kick();
    expect(temporaries()).toEqual([]);
    expect(await variantsOfBig()).toEqual([]);

    await new VariantCompressor(server.ctx).kick();
    expect(forms(await variantsOfBig())).toEqual([
      ["br", true],
      ["gzip", true],
    ]);
  });

  it("ends its run, with no temporary file left, when a file's bytes went away before it read them", async () => {
    const { sha256, variantsOf } = await siteWithPage("gone");
    // As a sweep or a purge between the compressor's query and its read leaves it.
    const original = server.ctx.blobs.filePath!(sha256);
    const bytes = readFileSync(original);
    rmSync(original);
    const tmpDir = path.join(server.ctx.env.dataDir, "blobs", "tmp");
    const compressor = new VariantCompressor(server.ctx);
    try {
      const run = compressor.kick();
      const outcome = await Promise.race([run.then(() => "ended"), sleep(10_000, "still waiting")]);
      expect(outcome).toBe("ended");
      expect(readdirSync(tmpDir).filter((name) => !name.startsWith("sweep-"))).toEqual([]);
    } finally {
      writeFileSync(original, bytes);
      await compressor.stop();
    }
    // Back in place, the next run makes its forms.
    await new VariantCompressor(server.ctx).kick();
    expect(forms(await variantsOf())).toEqual([
      ["br", true],
      ["gzip", true],
    ]);
  });

  it("leaves a deleted site's files alone, and compresses them once it is restored", async () => {
    const { client, site, variantsOf } = await siteWithPage("deleted");
    expect((await client.delete(`/api/sites/${site.id}`)).statusCode).toBe(200);
    await server.compressor.kick();
    expect(await variantsOf()).toEqual([]);

    expect((await client.post(`/api/sites/${site.id}/restore`, {})).statusCode).toBe(200);
    await server.compressor.kick();
    expect((await variantsOf()).map((v) => v.encoding).sort()).toEqual(["br", "gzip"]);
  });

  it("takes up a blob that has its gzip form but not its brotli one, as a stop or a crash between the two leaves it", async () => {
    const { sha256, variantsOf } = await siteWithPage("between");
    await server.compressor.kick();
    expect((await variantsOf()).map((v) => v.encoding).sort()).toEqual(["br", "gzip"]);

    await server.ctx.db.delete(blobVariants).where(and(eq(blobVariants.sha256, sha256), eq(blobVariants.encoding, "br")));
    await server.compressor.kick();
    expect(forms(await variantsOf())).toEqual([
      ["br", true],
      ["gzip", true],
    ]);
  });
});
