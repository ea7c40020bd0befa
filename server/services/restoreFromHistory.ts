// Restoring from history: a file, a folder or the whole site as a kept version had it, or the
// whole site as it was live at a moment (Pro). Nothing old is rewritten: the working tree takes
// the old files in one transaction (under the site's, the quota's and the blobs' locks, with the
// quota checked after), and then the usual publish makes it a new version, so locks, quota,
// pruning, webhooks and events all apply as to any other change in the Files tab.
import { HISTORY_TEXT } from "../../common/history";
import { byteLimit } from "../../common/plans";
import type { AppContext } from "../context";
import type { Tx } from "../db/client";
import { lockBlobs } from "../db/repositories/blobs";
import { getDeploymentForSite, type Deployment } from "../db/repositories/deployments";
import { livePeriodAt, manifestEntry, manifestUnder, type ManifestEntry } from "../db/repositories/history";
import {
  ancestorFolders,
  deleteSiteFileTree,
  ensureFolders,
  findSiteFileByPath,
  PathConflictError,
  resetSiteFilesToDeployment,
  upsertFiles,
} from "../db/repositories/siteFiles";
import { lockSiteForUser, type Site } from "../db/repositories/sites";
import { lockUserQuota, storageUsedByUser } from "../db/repositories/usage";
import { AppError } from "../errors";
import { quotaExceeded } from "../uploads/errors";
import { planOf, requireFeature } from "./planPolicy";
import { publishDeployment } from "./publishDeployment";
import { versionNotKept } from "./readHistory";
import { requireNotDeleted, UUID } from "./siteAccess";

export interface RestoreInput {
  userId: string;
  siteId: string;
  deploymentId: string;
  /** A file or folder of the site; null with `folder`: the whole site. */
  path: string | null;
  folder: boolean;
}

export interface Restored {
  deployment: Deployment;
  restoredVersion: number;
}

/** Puts a file, a folder's whole contents or the whole site back as the version had it, as a new version. */
export async function restoreVersion(ctx: AppContext, input: RestoreInput, note?: string): Promise<Restored> {
  const plan = await planOf(ctx, input.userId);
  const { site, source } = await ctx.db.transaction(async (tx) => {
    const site = await lockSiteForUser(tx, input.userId, input.siteId);
    if (!site) throw new AppError("site_not_found", 404, "Site not found");
    requireNotDeleted(site);
    // Under the site's lock no prune runs, so a version found here keeps its files (and their
    // blobs) until this transaction ends.
    const source = UUID.test(input.deploymentId) ? await getDeploymentForSite(tx, site.id, input.deploymentId) : undefined;
    if (!source) throw versionNotKept(ctx.plans, plan);
    if (source.status !== "success") throw new AppError("deployment_not_published", 409, "Only a published version can be restored.");
    await lockUserQuota(tx, input.userId);
    const entries = await entriesToRestore(tx, site, source, input);
    await lockBlobs(
      tx,
      entries.map((e) => e.sha256),
    );
    await requireStoredBytes(ctx, entries);
    try {
      await writeWorkingTree(tx, site, source, input, entries);
    } catch (error) {
      if (error instanceof PathConflictError) throw new AppError("path_conflict", 409, error.message);
      throw error;
    }
    if ((await storageUsedByUser(tx, input.userId)) > byteLimit(plan.storageBytes)) throw quotaExceeded(byteLimit(plan.storageBytes));
    return { site, source };
  });
  const what = input.path === null ? "the site" : input.folder ? `folder ${input.path}` : input.path;
  const deployment = await publishDeployment(ctx, site, note ?? `Restored ${what} from version ${source.version}`);
  return { deployment, restoredVersion: source.version };
}

/** Restores every file that was live at `at` (a plan with pointInTimeRecovery): the version live then, found in live_periods. */
export async function restoreSiteAt(ctx: AppContext, input: { userId: string; siteId: string; at: Date }, now = new Date()): Promise<Restored> {
  await requireFeature(ctx, input.userId, "pointInTimeRecovery");
  if (input.at.getTime() > now.getTime()) throw new AppError("invalid_time", 400, HISTORY_TEXT.restoreAtFuture);
  const period = await livePeriodAt(ctx.db, input.siteId, input.at);
  if (!period) throw new AppError("nothing_live", 409, HISTORY_TEXT.restoreAtNothing);
  if (!period.deployment_id) throw versionNotKept(ctx.plans, await planOf(ctx, input.userId));
  const when = input.at.toISOString().slice(0, 16).replace("T", " ");
  return restoreVersion(
    ctx,
    { userId: input.userId, siteId: input.siteId, deploymentId: period.deployment_id, path: null, folder: true },
    `Restored the site as it was at ${when} UTC (version ${period.version})`,
  );
}

async function entriesToRestore(tx: Tx, site: Site, source: Deployment, input: RestoreInput): Promise<ManifestEntry[]> {
  if (!input.folder) {
    const entry = input.path === null ? undefined : await manifestEntry(tx, site.id, source.id, input.path);
    if (!entry) throw new AppError("file_not_found", 404, HISTORY_TEXT.notInVersion);
    return [entry];
  }
  const entries = await manifestUnder(tx, source.id, input.path);
  if (entries.length === 0 && input.path !== null) throw new AppError("file_not_found", 404, "That version has no files in this folder.");
  return entries;
}

async function writeWorkingTree(tx: Tx, site: Site, source: Deployment, input: RestoreInput, entries: ManifestEntry[]): Promise<void> {
  const files = entries.map((e) => ({ path: e.path, sha256: e.sha256, size: e.size, contentType: e.content_type }));
  if (input.path === null) {
    await resetSiteFilesToDeployment(tx, site.id, source.id);
    return;
  }
  if (input.folder) {
    const standing = await findSiteFileByPath(tx, site.id, input.path);
    if (standing && !standing.is_folder) throw new PathConflictError(input.path, "file");
    await deleteSiteFileTree(tx, site.id, input.path);
    await ensureFolders(tx, site.id, ancestorFolders([...files.map((f) => f.path), `${input.path}/x`]));
  } else {
    await ensureFolders(tx, site.id, ancestorFolders([input.path]));
  }
  await upsertFiles(tx, site.id, files);
}

/**
 * A version's rows outlive nothing of its bytes in normal running (blobs go only when no row refers
 * to them), but a store restored from an older backup can lack some: refuse with a clear error
 * rather than publish a version that answers 404s.
 */
async function requireStoredBytes(ctx: Pick<AppContext, "blobs">, entries: ManifestEntry[]): Promise<void> {
  const shas = [...new Set(entries.map((e) => e.sha256))];
  for (let i = 0; i < shas.length; i += 16) {
    const found = await Promise.all(shas.slice(i, i + 16).map((sha) => ctx.blobs.stat(sha)));
    if (found.some((info) => info === undefined)) throw new AppError("content_missing", 410, HISTORY_TEXT.contentMissing);
  }
}
