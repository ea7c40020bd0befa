// Makes brotli and gzip forms of the compressible files of live deployments, in the background
// after a publish: the edge serves the uncompressed file until they exist, then the smaller one.
// A form is kept only when it saves enough to be worth its cost (minimumSaving).
import { pipeline } from "node:stream/promises";
import { PassThrough } from "node:stream";
import { constants, createBrotliCompress, createGzip } from "node:zlib";
import type { AppContext } from "../context";
import { blobsAwaitingCompression, recordNoVariants, recordVariant } from "../db/repositories/variants";
import { lockBlobs, registerBlobs } from "../db/repositories/blobs";
import { BlobTooLargeError } from "../storage/blobStore";
import { isCompressible } from "../http/encoding";

/** Smaller files gain too little from compression to be worth a second lookup. */
export const MIN_COMPRESS_BYTES = 1024;

/** Blobs taken per query. Those of types that never compress (images, fonts, archives) are settled together in one statement. */
const BATCH = 100;

/**
 * The fewest bytes a compressed form must save to be kept: a tenth of the file, and at least
 * 512 bytes. Each form is a second blob on disk, which no user's quota counts (the server's own
 * optimisation), plus a row and an entry in the edge's cache; a form a few percent smaller, or a
 * few hundred bytes smaller (less than one TCP segment of a 1-2 KB file), saves the reader no
 * measurable time. Text that compresses at all (HTML, CSS, JS, SVG, JSON) usually saves far more.
 */
export function minimumSaving(size: number): number {
  return Math.max(Math.ceil(size / 10), 512);
}

type CompressContext = Pick<AppContext, "db" | "blobs" | "events" | "log" | "foreground">;

function compressor(encoding: "br" | "gzip", size: number) {
  if (encoding === "gzip") return createGzip({ level: 9 });
  // Made once, sent many times: the smallest form is worth the CPU. Measured here, quality 11
  // against 9: 1-8 KB files 5 ms instead of 2 ms each and 9 % smaller; a 150 KB script 170 ms
  // instead of 19 ms and 10 % smaller (fewer bytes per request is most of a hot file's cost).
  // Above 256 KB 11 gets too slow (about 1 MB/s), so 9; above 1 MB, 5.
  const quality = size <= 256 * 1024 ? 11 : size <= 1024 * 1024 ? 9 : 5;
  return createBrotliCompress({
    params: { [constants.BROTLI_PARAM_QUALITY]: quality, [constants.BROTLI_PARAM_SIZE_HINT]: size },
  });
}

/**
 * Stores the compressed form if it is at most `maxBytes`; returns its size, or undefined when it is
 * larger (then it is remembered as not worth having, so it is not tried again).
 */
async function storeVariant(
  ctx: CompressContext,
  sha256: string,
  size: number,
  encoding: "br" | "gzip",
  maxBytes: number,
  signal: AbortSignal,
): Promise<number | undefined> {
  const zipped = new PassThrough();
  const putting = ctx.blobs.put(zipped, { maxBytes });
  try {
    // Aborted, the pipeline destroys `zipped` and the put fails, which removes its temporary file.
    await Promise.all([pipeline(await ctx.blobs.get(sha256), compressor(encoding, size), zipped, { signal }), putting]);
    const variant = await putting;
    const recorded = await ctx.db.transaction(async (tx) => {
      // The same bytes may be a blob that is being released (an uploaded .gz file, say): as an
      // upload's commit does (commitFiles.ts), record them only while they are still stored.
      await lockBlobs(tx, [variant.sha256]);
      if (!(await ctx.blobs.stat(variant.sha256))) return false;
      await registerBlobs(tx, [{ sha256: variant.sha256, size: variant.size }]);
      await recordVariant(tx, { sha256, encoding, variant_sha256: variant.sha256, size: variant.size });
      return true;
    });
    // Deleted in between: compressing again stores them anew.
    return recorded ? variant.size : storeVariant(ctx, sha256, size, encoding, maxBytes, signal);
  } catch (error) {
    // A failure before the pipeline took `zipped` over (the original gone, say) must still end the
    // put: it would wait for bytes for ever, keeping its temporary file, and the run with it, which
    // a shutdown waits for until its time limit cuts the process off, file and all.
    zipped.destroy();
    await putting.catch(() => undefined);
    if (!(error instanceof BlobTooLargeError)) throw error;
    // Saves too little: remember that, so it is not tried again.
    await recordVariant(ctx.db, { sha256, encoding, variant_sha256: null, size: null });
    return undefined;
  }
}

/** Stores a compressible blob's forms worth keeping; true when it got one. */
async function compressOne(ctx: CompressContext, sha256: string, size: number, signal: AbortSignal): Promise<boolean> {
  const worthIt = size - minimumSaving(size);
  const gzipSize = await storeVariant(ctx, sha256, size, "gzip", worthIt, signal);
  // gzip is cheap and tells whether the bytes compress at all; brotli (the costly one) is only
  // tried when gzip saved enough, and kept only when it is also smaller than gzip's form, since
  // the edge prefers br whenever a client takes both.
  if (gzipSize === undefined) {
    await recordVariant(ctx.db, { sha256, encoding: "br", variant_sha256: null, size: null });
    return false;
  }
  await storeVariant(ctx, sha256, size, "br", Math.min(worthIt, gzipSize - 1), signal);
  return true;
}

/**
 * Compresses what is waiting, one blob at a time. One run at a time per process; a call while a
 * run is under way makes that run go round once more.
 */
export class VariantCompressor {
  private running: Promise<void> | undefined;
  private again = false;
  private readonly stopping = new AbortController();

  constructor(private readonly ctx: CompressContext) {}

  kick(): Promise<void> {
    if (this.stopping.signal.aborted) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.drain()
      .catch((error: unknown) => {
        if (!this.stopping.signal.aborted) this.ctx.log.error({ err: error }, "compressing variants failed");
      })
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  /**
   * For a shutdown: the form being made is abandoned, its temporary file removed, and no run
   * starts again. What is left waiting is taken up by the next start. Waiting for the whole queue
   * instead could outlast the shutdown's time limit on a large backlog, and the process would
   * then exit halfway through a write.
   */
  async stop(): Promise<void> {
    this.stopping.abort();
    await this.running;
  }

  private async drain(): Promise<void> {
    const signal = this.stopping.signal;
    do {
      this.again = false;
      for (;;) {
        await this.ctx.foreground.idle();
        if (signal.aborted) return;
        const batch = await blobsAwaitingCompression(this.ctx.db, { minBytes: MIN_COMPRESS_BYTES, limit: BATCH });
        if (batch.length === 0) break;
        // A first deploy of a thousand images would otherwise cost two statements each here, a
        // few seconds of the database's one connection right when its owner deploys again.
        await recordNoVariants(
          this.ctx.db,
          batch.filter((b) => !isCompressible(b.contentType)).map((b) => b.sha256),
        );
        const compressed: string[] = [];
        try {
          for (const blob of batch.filter((b) => isCompressible(b.contentType))) {
            await this.ctx.foreground.idle();
            if (signal.aborted) return;
            if (await compressOne(this.ctx, blob.sha256, blob.size, signal)) compressed.push(blob.sha256);
          }
        } finally {
          // The edge reloads manifests so the new forms are served, those made before a stop too.
          if (compressed.length > 0) this.ctx.events.emit("variants", { shas: compressed });
        }
      }
    } while (this.again);
  }
}
