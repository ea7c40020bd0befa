// The worker role: housekeeping that must happen whether or not anyone is using the dashboard.
// Every task keeps its state in the database, so a restart loses nothing; a tick that fails is
// logged and tried again at the next one.
import type { AppContext } from "../context";
import type { ForegroundRequests } from "../http/foregroundRequests";
import { createDnsLookup } from "../dns";
import { ensureSubdomainPool, releaseStaleSubdomainReservations } from "../services/subdomainPool";
import { purgeDeletedSites } from "../services/purgeDeletedSites";
import { provisionDueDomains } from "../services/provisionDomains";
import type { VariantCompressor } from "../services/compressVariants";
import { rollUpAnalytics } from "../services/rollUpAnalytics";
import { pruneAnalytics } from "../db/repositories/analytics";
import { pruneRateLimits } from "../db/repositories/rateLimits";
import { deleteLapsedDeviceLogins } from "../db/repositories/deviceLogins";
import { BACKUP_CHECK_INTERVAL_MS, dailyBackupTask } from "../backup/daily";
import { sendWeeklySummaries } from "../services/sendWeeklySummaries";
import { sweepIntervalMs, sweepOrphans } from "../services/sweepOrphans";
import { deliverDueWebhooks } from "../services/deliverWebhooks";
import { pruneWebhookDeliveries } from "../db/repositories/webhooks";
import { noticeExpiringSites, pruneNotifications } from "../services/notifications/housekeeping";
import { runDueChecks } from "../services/runDeploymentChecks";
import { upkeepEmbeddedDatabase } from "../services/upkeepEmbeddedDatabase";

export const WORKER_INTERVAL_MS = 60_000;
/** Analytics roll-ups: an open Analytics tab sees a visit within about this long of the edge's flush. */
export const ANALYTICS_INTERVAL_MS = 10_000;
/** Custom-domain steps are due 5 s apart; looking every second keeps each within a second of its time. */
export const DOMAIN_INTERVAL_MS = 1_000;
/** Webhook deliveries due are looked for every second: an event or a test reaches its receiver within about that. */
export const WEBHOOK_INTERVAL_MS = 1_000;
/** Publish checks queued are looked for every second: results reach the deployment card within about that. */
export const CHECK_INTERVAL_MS = 1_000;
/**
 * The embedded database's tables due for ANALYZE or VACUUM are looked for every 10 s (one query):
 * a first deploy of a thousand files has statistics to plan with before its owner deploys again.
 */
export const UPKEEP_INTERVAL_MS = 10_000;
/** Finished webhook deliveries are kept this long, for the owner's deliveries list. */
export const WEBHOOK_DELIVERY_KEEP_MS = 30 * 24 * 60 * 60_000;

type WorkerContext = Pick<AppContext, "db" | "blobs" | "events" | "log" | "env" | "mailer" | "urls" | "webhookSecretKey" | "foreground">;

export async function runWorkerTick(ctx: WorkerContext, compressor?: VariantCompressor, now = new Date()): Promise<void> {
  await purgeDeletedSites(ctx, now);
  await releaseStaleSubdomainReservations(ctx.db, now);
  await ensureSubdomainPool(ctx.db);
  await pruneAnalytics(ctx.db, now);
  await pruneRateLimits(ctx.db, now.getTime());
  await pruneWebhookDeliveries(ctx.db, new Date(now.getTime() - WEBHOOK_DELIVERY_KEEP_MS));
  // A CLI sign-in request is kept a day past its lapse, then its code is free again.
  await deleteLapsedDeviceLogins(ctx.db, new Date(now.getTime() - 24 * 60 * 60 * 1000));
  await pruneNotifications(ctx, now);
  await noticeExpiringSites(ctx, now);
  // Mondays only, one query once everyone has theirs; a mail failure waits for the next tick.
  await sendWeeklySummaries(ctx, now);
  // Catches up on compression a restart interrupted; a no-op when nothing is waiting.
  await compressor?.kick();
}

/**
 * Runs `task` now and every `intervalMs`, one run at a time; stop() waits for the run under way.
 * Each run first lets the requests under way finish (http/foregroundRequests.ts).
 */
function every(
  foreground: ForegroundRequests,
  intervalMs: number,
  task: () => Promise<unknown>,
  onError: (error: unknown) => void,
): { stop(): Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  let busy = false;
  const tick = () => {
    // A slow run (DNS timeouts) is not queued up behind itself.
    if (busy) return;
    busy = true;
    running = foreground
      .idle()
      .then(task)
      .then(() => undefined, onError)
      .finally(() => {
        busy = false;
      });
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

export function startWorker(
  ctx: WorkerContext,
  compressor?: VariantCompressor,
  intervalMs = WORKER_INTERVAL_MS,
  domainIntervalMs = DOMAIN_INTERVAL_MS,
): { stop(): Promise<void> } {
  const housekeeping = every(
    ctx.foreground,
    intervalMs,
    () => runWorkerTick(ctx, compressor),
    (error) => ctx.log.error({ err: error }, "worker tick failed"),
  );
  const dns = createDnsLookup(ctx.env.dnsServers);
  const domains = every(
    ctx.foreground,
    domainIntervalMs,
    () => provisionDueDomains(ctx, dns),
    (error) => ctx.log.error({ err: error }, "custom-domain provisioning failed"),
  );
  // Webhook deliveries: durable rows, claimed with a lease (services/deliverWebhooks.ts).
  const webhooks = every(
    ctx.foreground,
    WEBHOOK_INTERVAL_MS,
    () => deliverDueWebhooks(ctx, dns),
    (error) => ctx.log.error({ err: error }, "webhook delivery failed"),
  );
  // Publish checks: durable rows, claimed with a lease (services/runDeploymentChecks.ts).
  const checks = every(
    ctx.foreground,
    CHECK_INTERVAL_MS,
    () => runDueChecks(ctx),
    (error) => ctx.log.error({ err: error }, "publish checks failed"),
  );
  const analytics = every(
    ctx.foreground,
    ANALYTICS_INTERVAL_MS,
    () => rollUpAnalytics(ctx),
    (error) => ctx.log.error({ err: error }, "analytics roll-up failed"),
  );
  // PGlite has no autovacuum: the worker does its part (services/upkeepEmbeddedDatabase.ts).
  const upkeep = every(
    ctx.foreground,
    UPKEEP_INTERVAL_MS,
    () => upkeepEmbeddedDatabase(ctx),
    (error) => ctx.log.error({ err: error }, "database upkeep failed"),
  );
  // What a crash left behind, once older than BERTH_ORPHAN_GRACE_SECONDS (services/sweepOrphans.ts).
  const orphans = every(
    ctx.foreground,
    sweepIntervalMs(ctx.env.orphanGraceMs),
    () => sweepOrphans(ctx),
    (error) => ctx.log.error({ err: error }, "orphan sweep failed"),
  );
  // BERTH_BACKUP_DAILY (on unless false): once per UTC day, scheduled by the archives' names (backup/daily.ts).
  const stopping = new AbortController();
  const dailyBackup = dailyBackupTask(ctx, { signal: stopping.signal });
  const backups = ctx.env.backupDaily
    ? every(
        ctx.foreground,
        BACKUP_CHECK_INTERVAL_MS,
        () => dailyBackup(),
        (error) => ctx.log.error({ err: error }, "daily backup failed"),
      )
    : undefined;
  return {
    async stop() {
      stopping.abort();
      await Promise.all([
        housekeeping.stop(),
        domains.stop(),
        webhooks.stop(),
        checks.stop(),
        analytics.stop(),
        upkeep.stop(),
        orphans.stop(),
        backups?.stop(),
      ]);
    },
  };
}
