// The worker role: housekeeping that must happen whether or not anyone is using the dashboard.
// Every task keeps its state in the database, so a restart loses nothing; a tick that fails is
// logged and tried again at the next one.
import type { AppContext } from "../context";
import { ensureSubdomainPool, releaseStaleSubdomainReservations } from "../services/subdomainPool";
import { purgeDeletedSites } from "../services/purgeDeletedSites";

export const WORKER_INTERVAL_MS = 60_000;

type WorkerContext = Pick<AppContext, "db" | "blobs" | "events" | "log">;

export async function runWorkerTick(ctx: WorkerContext, now = new Date()): Promise<void> {
  await purgeDeletedSites(ctx, now);
  await releaseStaleSubdomainReservations(ctx.db, now);
  await ensureSubdomainPool(ctx.db);
}

export function startWorker(ctx: WorkerContext, intervalMs = WORKER_INTERVAL_MS): { stop(): Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    running = running.then(() => runWorkerTick(ctx)).catch((error: unknown) => ctx.log.error({ err: error }, "worker tick failed"));
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
