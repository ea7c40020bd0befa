// A site's lifecycle: deploy now, roll back, promote a draft, delete (restorable for the grace
// period, DELETION_GRACE_DAYS) and restore.
import { DEPLOY_TEXT } from "../../common/deploys";
import type { AppContext } from "../context";
import { getDeploymentForSite, type Deployment } from "../db/repositories/deployments";
import { siteHasFiles } from "../db/repositories/siteFiles";
import { lockSiteForUser, markSiteDeleted, restoreDeletedSite, type Site } from "../db/repositories/sites";
import { AppError } from "../errors";
import { enqueueWebhookEvent, siteEvent } from "./enqueueWebhookEvent";
import { makeLive, publishDeployment } from "./publishDeployment";
import { requireNotDeleted, requireSite } from "./siteAccess";

/** The caller has checked that the site is the user's and not deleted (requireSiteForChange). */
export async function deployNow(ctx: AppContext, site: Site): Promise<Deployment> {
  if (!(await siteHasFiles(ctx.db, site.id))) throw new AppError("nothing_to_deploy", 400, "There are no files to deploy. Upload a file first.");
  return publishDeployment(ctx, site, "Deployed from the dashboard");
}

/**
 * Makes an older successful deployment live again. The pointer moves back (deployments never
 * change), and the working tree is reset to that version's files, so the next change in the
 * Files tab builds on what is live.
 */
export async function rollbackDeployment(ctx: AppContext, userId: string, siteId: string, deploymentId: string): Promise<Deployment> {
  return goLive(ctx, userId, siteId, deploymentId, "deploy.rolled_back", () => undefined);
}

/**
 * Makes a draft live, exactly as a rollback to it would. Anything else that is not live is an
 * older version, for rollback; the live one is answered as it is, so a retried promotion succeeds.
 */
export async function promoteDeployment(ctx: AppContext, userId: string, siteId: string, deploymentId: string): Promise<Deployment> {
  return goLive(ctx, userId, siteId, deploymentId, "deploy.succeeded", (site, target) => {
    if (target.id === site.live_deployment_id) return target;
    if (!target.is_draft) throw new AppError("not_a_draft", 409, DEPLOY_TEXT.notADraft);
    return undefined;
  });
}

/** `check` refuses the target (throws) or answers without a change (returns it); undefined goes ahead. */
async function goLive(
  ctx: AppContext,
  userId: string,
  siteId: string,
  deploymentId: string,
  /** What the owner's webhooks hear: a rollback, or a promoted draft's going live. */
  event: "deploy.rolled_back" | "deploy.succeeded",
  check: (site: Site, target: Deployment) => Deployment | undefined,
): Promise<Deployment> {
  const { site, target, changed } = await ctx.db.transaction(async (tx) => {
    const site = await lockSiteForUser(tx, userId, siteId);
    if (!site) throw new AppError("site_not_found", 404, "Site not found");
    requireNotDeleted(site);
    const target = await getDeploymentForSite(tx, site.id, deploymentId);
    if (!target) throw new AppError("deployment_not_found", 404, "Deployment not found");
    if (target.status !== "success") throw new AppError("deployment_not_live", 409, "Only a successful deployment can be made live.");
    const unchanged = check(site, target);
    if (unchanged) return { site, target: unchanged, changed: false };
    await makeLive(tx, site.id, target.id);
    await enqueueWebhookEvent(tx, siteEvent(ctx.urls, event, site, target));
    return { site, target: { ...target, is_draft: false }, changed: true };
  });
  if (changed) {
    notifySite(ctx, site);
    ctx.events.emit("deployment", { userId, siteId: site.id, subdomain: site.subdomain, deployment: target });
  }
  return target;
}

export async function deleteSite(ctx: AppContext, userId: string, siteId: string, now = new Date()): Promise<Site> {
  const site = await ctx.db.transaction(async (tx) => {
    const deleted = await markSiteDeleted(tx, userId, siteId, now);
    if (deleted) await enqueueWebhookEvent(tx, siteEvent(ctx.urls, "site.deleted", deleted), now);
    return deleted;
  });
  if (!site) {
    await requireSite(ctx.db, userId, siteId);
    throw new AppError("site_deleted", 409, "This site is already marked for deletion.");
  }
  notifySite(ctx, site);
  return site;
}

export async function restoreSite(ctx: AppContext, userId: string, siteId: string): Promise<Site> {
  const site = await restoreDeletedSite(ctx.db, userId, siteId);
  if (!site) {
    await requireSite(ctx.db, userId, siteId);
    throw new AppError("site_not_deleted", 409, "This site is not marked for deletion.");
  }
  notifySite(ctx, site);
  return site;
}

function notifySite(ctx: AppContext, site: Site): void {
  ctx.events.emit("site", { userId: site.user_id, siteId: site.id, subdomain: site.subdomain });
}
