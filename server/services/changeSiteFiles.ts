// Changes made in the Files tab. Each one edits the working tree and then publishes it at once
// (instant deployment): the live site moves to the new version atomically.
import type { AppContext } from "../context";
import type { Tx } from "../db/client";
import type { Deployment } from "../db/repositories/deployments";
import { deleteSiteFileTree, ensureFolders, ancestorFolders, findSiteFileByPath, getSiteFile, type SiteFile } from "../db/repositories/siteFiles";
import { lockSiteForUser, type Site } from "../db/repositories/sites";
import { AppError } from "../errors";
import { commitStagedFiles } from "./commitFiles";
import { publishDeployment } from "./publishDeployment";
import { requireNotDeleted } from "./siteAccess";
import type { StagedUpload } from "./stageUpload";
import { validateSitePath } from "../../common/uploads";

async function lockOwnedSite(tx: Tx, userId: string, siteId: string): Promise<Site> {
  const site = await lockSiteForUser(tx, userId, siteId);
  if (!site) throw new AppError("site_not_found", 404, "Site not found");
  requireNotDeleted(site);
  return site;
}

export async function addFilesToSite(
  ctx: AppContext,
  input: { userId: string; siteId: string; parent: string | null; staged: StagedUpload; quotaBytes: number; note: string },
): Promise<{ files: SiteFile[]; deployment: Deployment }> {
  let result: { site: Site; files: SiteFile[] };
  try {
    result = await ctx.db.transaction(async (tx) => {
      const site = await lockOwnedSite(tx, input.userId, input.siteId);
      const files = await commitStagedFiles(tx, input);
      return { site, files };
    });
  } catch (error) {
    await input.staged.discard();
    throw error;
  }
  const deployment = await publishDeployment(ctx, result.site, input.note);
  return { files: result.files, deployment };
}

export async function createFolder(
  ctx: AppContext,
  input: { userId: string; siteId: string; parent: string | null; name: string },
): Promise<{ file: SiteFile; deployment: Deployment }> {
  const checked = validateSitePath(input.parent ? `${input.parent}/${input.name}` : input.name);
  if (!checked.ok) throw new AppError("invalid_name", 400, checked.error);
  const path = checked.path;
  const { site, file } = await ctx.db.transaction(async (tx) => {
    const site = await lockOwnedSite(tx, input.userId, input.siteId);
    const existing = await findSiteFileByPath(tx, site.id, path);
    if (existing)
      throw new AppError("path_conflict", 409, `${existing.is_folder ? "A folder" : "A file"} named ${existing.filename} already exists here`);
    await ensureFolders(tx, site.id, [...ancestorFolders([path]), path]);
    return { site, file: (await findSiteFileByPath(tx, site.id, path))! };
  });
  const deployment = await publishDeployment(ctx, site, `Created folder ${path}`);
  return { file, deployment };
}

export async function deleteSiteFile(
  ctx: AppContext,
  input: { userId: string; siteId: string; fileId: string },
): Promise<{ deployment: Deployment }> {
  const { site, file } = await ctx.db.transaction(async (tx) => {
    const site = await lockOwnedSite(tx, input.userId, input.siteId);
    const file = await getSiteFile(tx, site.id, input.fileId);
    if (!file) throw new AppError("file_not_found", 404, "File not found");
    await deleteSiteFileTree(tx, site.id, file.file_path);
    return { site, file };
  });
  const note = file.is_folder ? `Deleted folder ${file.file_path}` : `Deleted ${file.file_path}`;
  const deployment = await publishDeployment(ctx, site, note);
  return { deployment };
}
