// Publishing a deploy made through the API, exactly as a dashboard upload publishes: the
// _redirects and _headers checks (a bad line fails the new version and leaves the live one), then
// in one transaction a new version n+1 whose files are the manifest, the quota checked again
// under the locks a commit of files takes, and (unless it is a draft) the live pointer and the
// working tree moved to it as a rollback moves them. A draft is served on its own host
// `{sub}--v{n}` only, until it is promoted. Publishing again answers what the first publish did.
import { DEPLOY_TEXT } from "../../common/deploys";
import { byteLimit } from "../../common/plans";
import type { AppContext } from "../context";
import type { Executor, Tx } from "../db/client";
import { lockBlobsOfDeploy } from "../db/repositories/blobs";
import {
  insertDeploymentFilesFromDeploy,
  lockDeploy,
  manifestEntriesAt,
  markDeployFailed,
  markDeployPublished,
  type Deploy,
} from "../db/repositories/deploys";
import { insertDeploymentCheck } from "../db/repositories/deploymentChecks";
import { insertNextDeployment, markDeploymentFailed, markDeploymentSucceeded, type Deployment } from "../db/repositories/deployments";
import { ancestorFolders, ensureFolders } from "../db/repositories/siteFiles";
import { lockSiteForUser, type Site } from "../db/repositories/sites";
import { lockUserQuota, storageUsedByUser } from "../db/repositories/usage";
import { AppError } from "../errors";
import type { SiteConfig } from "../siteConfig/siteConfig";
import { quotaExceeded } from "../uploads/errors";
import { deployDigests, stillMissing, type DeployDigests } from "./deployDigests";
import { requireDeploy, requireOpen } from "./openDeploy";
import { planOf } from "./planPolicy";
import { enqueueWebhookEvent, siteEvent } from "./enqueueWebhookEvent";
import { makeLive, notify, pruneAfterPublish, timed, type PublishContext } from "./publishDeployment";
import { readConfigFiles, SiteConfigError } from "./readSiteConfig";
import { requireNotDeleted } from "./siteAccess";

/** The note of a deployment whose deploy came without a message. */
export const DEPLOY_NOTE = "Deployed through the API";

/** The deploy after its publish, and the version it made (undefined when an earlier call published it). */
export interface PublishedDeploy {
  deploy: Deploy;
  deployment: Deployment | undefined;
}

export async function publishDeploy(
  ctx: PublishContext,
  userId: string,
  siteId: string,
  deployId: string,
  now = new Date(),
): Promise<PublishedDeploy> {
  const startedAt = performance.now();
  const deploy = await requireDeploy(ctx.db, userId, siteId, deployId);
  if (deploy.status !== "uploading") return { deploy, deployment: undefined };
  requireOpen(deploy, now);
  // Read before the transaction, so that no lock is held while blobs are read; the bytes are the
  // user's or this deploy's, which nothing deletes while the deploy is open. A configuration file
  // not sent yet cannot be read: then the answer says what is missing, not why the read failed.
  // Whether all the files are there is checked once, under the locks below.
  const digests = await deployDigests.read(ctx.db, deploy.id);
  const configFiles = manifestEntriesAt(ctx.db, deploy.id, ["_redirects", "_headers"]);
  const config = await readConfigFiles(ctx, async (path) => (await configFiles).find((f) => f.path === path)).catch(async (error: unknown) => {
    if (error instanceof SiteConfigError) return error;
    await requireNothingMissing(ctx.db, deploy, digests);
    throw error;
  });
  const plan = await planOf(ctx, userId);

  const result = await ctx.db.transaction(async (tx) => {
    // The locks of a commit of files, in its order (commitFiles.ts): site, quota, then blobs.
    const site = await lockSiteForUser(tx, userId, siteId);
    if (!site) throw new AppError("site_not_found", 404, "Site not found");
    requireNotDeleted(site);
    await lockUserQuota(tx, userId);
    const open = await lockDeploy(tx, deploy.id, "update");
    // Another request published it while this one read the configuration: its answer stands.
    if (!open || open.status !== "uploading") return { site, deploy: open ?? deploy, deployment: undefined };
    // Under the blobs' locks, what the user stores or the deploy received is stored and stays:
    // the rows referring to it are there, and a deletion waits for these locks, then sees ours.
    // Checked before a bad configuration fails the deploy, so that the files it names are ones
    // this user sent or stores, not bytes another account happens to hold.
    await lockBlobsOfDeploy(tx, deploy.id);
    await requireNothingMissing(tx, deploy, digests);
    const note = deploy.message ?? DEPLOY_NOTE;
    if (config instanceof SiteConfigError) {
      const started = await insertNextDeployment(tx, site.id, note);
      const failed = (await markDeploymentFailed(tx, started.id, config.message))!;
      await enqueueWebhookEvent(tx, siteEvent(ctx.urls, "deploy.failed", site, failed));
      return { site, deploy: await markDeployFailed(tx, deploy.id, failed.id, config.message), deployment: failed };
    }
    const deployment = await publishManifest(ctx, tx, site, deploy, config, note);
    if ((await storageUsedByUser(tx, userId)) > byteLimit(plan.storageBytes)) throw quotaExceeded(byteLimit(plan.storageBytes));
    return { site, deploy: await markDeployPublished(tx, deploy.id, deployment.id), deployment };
  });

  if (result.deployment) {
    notify(ctx, result.site, result.deployment);
    timed(ctx, "api", result.deployment, startedAt);
    if (result.deployment.status === "success") await pruneAfterPublish(ctx, result.site);
  }
  return { deploy: result.deploy, deployment: result.deployment };
}

/** The new version with the deploy's files; live at once unless the deploy is a draft. */
async function publishManifest(
  ctx: Pick<AppContext, "urls">,
  tx: Tx,
  site: Site,
  deploy: Deploy,
  config: SiteConfig,
  note: string,
): Promise<Deployment> {
  const started = await insertNextDeployment(tx, site.id, note);
  // Every digest already has its `blobs` row: the ones received were registered with their
  // deploy_uploads rows (receiveDeployFiles.ts), and the others are the user's, so rows of theirs
  // refer to them and no release deletes them. Registering the whole manifest again took 5–17 ms
  // of a redeploy for one new row at most.
  await insertDeploymentFilesFromDeploy(tx, started.id, deploy.id);
  const deployment = await markDeploymentSucceeded(tx, started.id, {
    file_count: deploy.file_count,
    total_size: deploy.total_size,
    deployment_url: ctx.urls.deployment(site.subdomain, started.version),
    config,
    is_draft: deploy.draft,
  });
  // The check runs in the worker once this is published (services/runDeploymentChecks.ts).
  await insertDeploymentCheck(tx, deployment.id);
  // A draft is not live yet: its owner's webhooks hear deploy.succeeded when it is promoted.
  if (!deploy.draft) {
    await makeLive(tx, site.id, deployment.id);
    // A version keeps files only; the empty folders the deploy brought go to the working tree,
    // as a zip's do in the Files tab, and stay there until a publish without them replaces it.
    await ensureFolders(tx, site.id, ancestorFolders(deploy.folders.map((f) => `${f}/x`)));
    await enqueueWebhookEvent(tx, siteEvent(ctx.urls, "deploy.succeeded", site, deployment));
  }
  return deployment;
}

async function requireNothingMissing(db: Executor, deploy: Deploy, digests: DeployDigests): Promise<void> {
  const missing = await stillMissing(db, deploy, digests);
  if (missing.length > 0) throw new AppError("files_missing", 409, DEPLOY_TEXT.stillMissing(missing.length));
}
