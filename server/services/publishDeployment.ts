// Publishing: the site's working tree (site_files) is snapshotted into a new, immutable
// deployment and the site's live pointer moves to it in the same transaction, so the edge serves
// either the old version or the new one, never a mix. What every way of publishing shares (going
// live, the events, the history's pruning) is here too: publishDeploy.ts (a deploy through the
// API) and manageSite.ts (rollback, promotion) use it.
import type { AppContext } from "../context";
import type { Tx } from "../db/client";
import {
  clearDraft,
  insertNextDeployment,
  markDeploymentFailed,
  markDeploymentSucceeded,
  snapshotSiteFiles,
  type Deployment,
} from "../db/repositories/deployments";
import { recordWentLive } from "../db/repositories/history";
import { insertDeploymentCheck } from "../db/repositories/deploymentChecks";
import { resetSiteFilesToDeployment } from "../db/repositories/siteFiles";
import { lockSite, setLiveDeployment, type Site } from "../db/repositories/sites";
import type { SiteConfig } from "../siteConfig/siteConfig";
import type { PublishSource } from "../../common/metrics";
import { readSiteConfig, SiteConfigError } from "./readSiteConfig";
import { pruneDeployments } from "./pruneDeployments";
import { enqueueWebhookEvent, siteEvent } from "./enqueueWebhookEvent";

export type PublishContext = Pick<AppContext, "db" | "plans" | "events" | "urls" | "log" | "blobs">;

/**
 * Publishes the site's working tree. Returns the deployment: `success` and live, or `failed`
 * with the reason (a bad _redirects line, say) while the previous version stays live.
 */
export async function publishDeployment(ctx: PublishContext, site: Site, note: string | null): Promise<Deployment> {
  const startedAt = performance.now();
  const started = await ctx.db.transaction(async (tx) => {
    // The site row's lock numbers versions one after another even when two publishes race.
    await lockSite(tx, site.id);
    return insertNextDeployment(tx, site.id, note);
  });
  notify(ctx, site, started);

  let config: SiteConfig;
  try {
    config = await readSiteConfig(ctx, site.id);
  } catch (error) {
    if (!(error instanceof SiteConfigError)) throw error;
    const failed = (await markFailed(ctx, site, started.id, error.message))!;
    notify(ctx, site, failed);
    timed(ctx, "dashboard", failed, startedAt);
    return failed;
  }

  try {
    const published = await ctx.db.transaction(async (tx) => {
      await lockSite(tx, site.id);
      const totals = await snapshotSiteFiles(tx, site.id, started.id);
      const done = await markDeploymentSucceeded(tx, started.id, {
        file_count: totals.count,
        total_size: totals.size,
        deployment_url: ctx.urls.deployment(site.subdomain, started.version),
        config,
      });
      await goLive(tx, site.id, done.id);
      // The check runs in the worker once this is live (services/runDeploymentChecks.ts).
      await insertDeploymentCheck(tx, done.id);
      await enqueueWebhookEvent(tx, siteEvent(ctx.urls, "deploy.succeeded", site, done));
      return done;
    });
    notify(ctx, site, published);
    timed(ctx, "dashboard", published, startedAt);
    await pruneAfterPublish(ctx, site);
    return published;
  } catch (error) {
    ctx.log.error({ err: error, siteId: site.id, deploymentId: started.id }, "publish failed");
    const failed = await markFailed(ctx, site, started.id, "Deployment failed to complete successfully");
    if (failed) notify(ctx, site, failed);
    timed(ctx, "dashboard", { status: "failed" }, startedAt);
    throw error;
  }
}

/** Marks the deployment failed and enqueues deploy.failed for the owner's webhooks, in one transaction. */
function markFailed(ctx: PublishContext, site: Site, deploymentId: string, reason: string): Promise<Deployment | undefined> {
  return ctx.db.transaction(async (tx) => {
    const failed = await markDeploymentFailed(tx, deploymentId, reason);
    if (failed) await enqueueWebhookEvent(tx, siteEvent(ctx.urls, "deploy.failed", site, failed));
    return failed;
  });
}

/**
 * Makes a published deployment the live one: the pointer moves and the working tree becomes that
 * version's files, so the next change in the Files tab builds on what is live. Call inside the
 * transaction that holds the site's row lock.
 */
export async function makeLive(tx: Tx, siteId: string, deploymentId: string): Promise<void> {
  await resetSiteFilesToDeployment(tx, siteId, deploymentId);
  await goLive(tx, siteId, deploymentId);
  await clearDraft(tx, deploymentId);
}

/**
 * The one way the live pointer moves: with a record of when (live_periods), so "restore the site
 * as it was at…" can tell which version was live at any moment, rollbacks included.
 */
async function goLive(tx: Tx, siteId: string, deploymentId: string): Promise<void> {
  await setLiveDeployment(tx, siteId, deploymentId);
  await recordWentLive(tx, siteId, deploymentId);
}

/**
 * Tells the dashboards (and the deployment-failed mail) about a deployment, and the edge about a
 * successful one: it drops the site's cached hosts, its version hosts included, so a new version
 * host (a draft's) is found at once.
 */
export function notify(ctx: Pick<AppContext, "events">, site: Pick<Site, "id" | "user_id" | "subdomain">, deployment: Deployment): void {
  ctx.events.emit("deployment", { userId: site.user_id, siteId: site.id, subdomain: site.subdomain, deployment });
  if (deployment.status === "success") ctx.events.emit("site", { userId: site.user_id, siteId: site.id, subdomain: site.subdomain });
}

/** Tells the metrics how long a publish took, from `startedAt` (performance.now()) to its end. */
export function timed(ctx: Pick<AppContext, "events">, source: PublishSource, deployment: Pick<Deployment, "status">, startedAt: number): void {
  const outcome = deployment.status === "success" ? "success" : "failed";
  ctx.events.emit("publishTimed", { source, outcome, seconds: (performance.now() - startedAt) / 1000 });
}

/** Older versions beyond the plan's history go after each publish; the publish itself is done either way. */
export async function pruneAfterPublish(ctx: PublishContext, site: Pick<Site, "id" | "user_id" | "subdomain">): Promise<void> {
  await pruneDeployments(ctx, site).catch((error: unknown) => ctx.log.error({ err: error, siteId: site.id }, "could not prune old deployments"));
}
