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
import { resetSiteFilesToDeployment } from "../db/repositories/siteFiles";
import { lockSite, setLiveDeployment, type Site } from "../db/repositories/sites";
import type { SiteConfig } from "../siteConfig/siteConfig";
import { readSiteConfig, SiteConfigError } from "./readSiteConfig";
import { pruneDeployments } from "./pruneDeployments";

export type PublishContext = Pick<AppContext, "db" | "events" | "urls" | "log" | "blobs">;

/**
 * Publishes the site's working tree. Returns the deployment: `success` and live, or `failed`
 * with the reason (a bad _redirects line, say) while the previous version stays live.
 */
export async function publishDeployment(ctx: PublishContext, site: Site, note: string | null): Promise<Deployment> {
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
    const failed = (await markDeploymentFailed(ctx.db, started.id, error.message))!;
    notify(ctx, site, failed);
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
      await setLiveDeployment(tx, site.id, done.id);
      return done;
    });
    notify(ctx, site, published);
    await pruneAfterPublish(ctx, site);
    return published;
  } catch (error) {
    ctx.log.error({ err: error, siteId: site.id, deploymentId: started.id }, "publish failed");
    const failed = await markDeploymentFailed(ctx.db, started.id, "Deployment failed to complete successfully");
    if (failed) notify(ctx, site, failed);
    throw error;
  }
}

/**
 * Makes a published deployment the live one: the pointer moves and the working tree becomes that
 * version's files, so the next change in the Files tab builds on what is live. Call inside the
 * transaction that holds the site's row lock.
 */
export async function makeLive(tx: Tx, siteId: string, deploymentId: string): Promise<void> {
  await resetSiteFilesToDeployment(tx, siteId, deploymentId);
  await setLiveDeployment(tx, siteId, deploymentId);
  await clearDraft(tx, deploymentId);
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

/** Older versions beyond the plan's history go after each publish; the publish itself is done either way. */
export async function pruneAfterPublish(ctx: PublishContext, site: Pick<Site, "id" | "user_id" | "subdomain">): Promise<void> {
  await pruneDeployments(ctx, site).catch((error: unknown) => ctx.log.error({ err: error, siteId: site.id }, "could not prune old deployments"));
}
