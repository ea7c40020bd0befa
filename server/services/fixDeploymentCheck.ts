// The publish check's two one-click fixes. Each changes the site's working tree (which is the live
// version's files) in one transaction and publishes it as a new version through the usual path
// (publishDeployment.ts: locks, webhooks, history), which is checked again in its turn.
//
// Case mismatches are fixed by giving files the name their references use, not by rewriting the
// references: a rename keeps every byte of every file as it was uploaded, while rewriting pages
// and stylesheets would mean editing hostile, possibly minified or non-UTF-8 text, and would
// still miss names built by scripts. A file whose own name is referenced too keeps it and gains
// the other (both rows share one stored blob, so the quota does not change). A missing index is
// fixed by copying the chosen page to index.html, for the same reason: links to its old name
// keep working.
import { CHECK_TEXT } from "../../common/checks";
import { validateSitePath } from "../../common/uploads";
import type { Tx } from "../db/client";
import { getCheckForSite, type DeploymentCheck } from "../db/repositories/deploymentChecks";
import type { Deployment } from "../db/repositories/deployments";
import {
  ancestorFolders,
  deleteEmptyFolders,
  deleteSiteFileTree,
  ensureFolders,
  findSiteFileByPath,
  PathConflictError,
  upsertFiles,
} from "../db/repositories/siteFiles";
import { lockSiteForUser, type Site } from "../db/repositories/sites";
import { lockUserQuota } from "../db/repositories/usage";
import { AppError } from "../errors";
import { publishDeployment, type PublishContext } from "./publishDeployment";
import { requireNotDeleted } from "./siteAccess";

/** The site, locked, and the check of its live deployment; refuses what a fix cannot apply to. */
async function lockForFix(tx: Tx, userId: string, siteId: string, deploymentId: string): Promise<{ site: Site; check: DeploymentCheck }> {
  const site = await lockSiteForUser(tx, userId, siteId);
  if (!site) throw new AppError("site_not_found", 404, "Site not found");
  requireNotDeleted(site);
  await lockUserQuota(tx, userId);
  const check = await getCheckForSite(tx, site.id, deploymentId);
  if (!check) throw new AppError("check_not_found", 404, "This version has no publish check");
  if (check.status !== "done") throw new AppError("check_not_done", 409, "This version is still being checked");
  if (site.live_deployment_id !== deploymentId) throw new AppError("not_live", 409, CHECK_TEXT.notLive);
  return { site, check };
}

/** Copies (or moves) a working-tree file to `to`, keeping its blob. False when `from` is not a file any more. */
async function placeFile(tx: Tx, siteId: string, from: string, to: string, keep: boolean): Promise<boolean> {
  const file = await findSiteFileByPath(tx, siteId, from);
  if (!file || file.is_folder || !file.sha256) return false;
  const checked = validateSitePath(to);
  if (!checked.ok) return false;
  try {
    await ensureFolders(tx, siteId, ancestorFolders([checked.path]));
    await upsertFiles(tx, siteId, [
      { path: checked.path, sha256: file.sha256, size: file.file_size, contentType: file.file_type ?? "application/octet-stream" },
    ]);
  } catch (error) {
    if (error instanceof PathConflictError) throw new AppError("path_conflict", 409, error.message);
    throw error;
  }
  if (!keep) await deleteSiteFileTree(tx, siteId, from);
  return true;
}

export async function fixCaseMismatches(ctx: PublishContext, userId: string, siteId: string, deploymentId: string): Promise<Deployment> {
  const { site, count } = await ctx.db.transaction(async (tx) => {
    const { site, check } = await lockForFix(tx, userId, siteId, deploymentId);
    if (check.renames.length === 0) throw new AppError("nothing_to_fix", 409, "This version has no case mismatches to fix");
    let count = 0;
    for (const rename of check.renames) if (await placeFile(tx, site.id, rename.from, rename.to, rename.keep)) count++;
    if (count === 0) throw new AppError("nothing_to_fix", 409, "The files of these case mismatches are gone");
    await deleteEmptyFolders(tx, site.id, ancestorFolders(check.renames.filter((r) => !r.keep).map((r) => r.from)));
    return { site, count };
  });
  return publishDeployment(ctx, site, count === 1 ? "Fixed 1 case mismatch" : `Fixed ${count} case mismatches`);
}

export async function useIndexPage(ctx: PublishContext, userId: string, siteId: string, deploymentId: string, path: string): Promise<Deployment> {
  const site = await ctx.db.transaction(async (tx) => {
    const { site, check } = await lockForFix(tx, userId, siteId, deploymentId);
    const candidates = check.findings.find((f) => f.kind === "no_index")?.candidates ?? [];
    // Only a page the check offered: this route copies files, so it copies no other.
    if (!candidates.includes(path)) throw new AppError("not_a_candidate", 409, "That file is not one the check offered as the index page");
    if (await findSiteFileByPath(tx, site.id, "index.html")) throw new AppError("path_conflict", 409, "The site has an index.html already");
    if (!(await placeFile(tx, site.id, path, "index.html", true))) throw new AppError("file_not_found", 404, "File not found");
    return site;
  });
  return publishDeployment(ctx, site, `Used ${path} as the index page`);
}
