// The worker role: housekeeping that must happen whether or not anyone is using the dashboard.
// Every task keeps its state in the database, so a restart loses nothing; a tick that fails is
// logged and tried again at the next one.
import type { AppContext } from "../context";
import { ensureSubdomainPool, releaseStaleSubdomainReservations } from "../services/subdomainPool";
import { purgeDeletedSites } from "../services/purgeDeletedSites";
import type { VariantCompressor } from "../services/compressVariants";

export const WORKER_INTERVAL_MS = 60_000;

type WorkerContext = Pick<AppContext, "db" | "blobs" | "events" | "log">;

export async function runWorkerTick(ctx: WorkerContext, compressor?: VariantCompressor, now = new Date()): Promise<void> {
  await purgeDeletedSites(ctx, now);
  await releaseStaleSubdomainReservations(ctx.db, now);
  await ensureSubdomainPool(ctx.db);
  // Catches up on compression a restart interrupted; a no-op when nothing is waiting.
  await compressor?.kick();
}

export function startWorker(ctx: WorkerContext, compressor?: VariantCompressor, intervalMs = WORKER_INTERVAL_MS): { stop(): Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    running = running.then(() => runWorkerTick(ctx, compressor)).catch((error: unknown) => ctx.log.error({ err: error }, "worker tick failed"));
  };
  tick();
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
