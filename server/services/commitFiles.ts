// Records staged blobs as a site's files, inside a transaction that also re-checks the account's
// quota: the check sees the final state, and a refusal rolls everything back.
import type { Tx } from "../db/client";
import { lockBlobs, registerBlobs } from "../db/repositories/blobs";
import { ancestorFolders, ensureFolders, PathConflictError, upsertFiles, type SiteFile } from "../db/repositories/siteFiles";
import { lockUserQuota, storageUsedByUser } from "../db/repositories/usage";
import { AppError } from "../errors";
import { quotaExceeded } from "../uploads/errors";
import type { StagedUpload } from "./stageUpload";
import { validateSitePath } from "../../common/uploads";

export async function commitStagedFiles(
  tx: Tx,
  input: { userId: string; siteId: string; parent: string | null; staged: StagedUpload; quotaBytes: number },
): Promise<SiteFile[]> {
  await lockUserQuota(tx, input.userId);
  const prefix = input.parent ? `${input.parent}/` : "";
  const files = input.staged.files.map((f) => ({ ...f, path: checkedPath(prefix + f.path) }));
  const folders = [
    ...new Set([
      ...(input.parent ? ancestorFolders([`${input.parent}/x`]) : []),
      ...input.staged.folders.map((f) => checkedPath(prefix + f)),
      ...ancestorFolders(files.map((f) => f.path)),
    ]),
  ].sort();
  // Until this commit no row refers to the upload's blobs, so a release of the same bytes
  // elsewhere may have deleted them since they were stored (releaseBlobs.ts). Under their locks
  // they are either still stored, and stay, or gone, and then no row may point at them.
  await lockBlobs(
    tx,
    files.map((f) => f.sha256),
  );
  if ((await input.staged.missingBlobs()).length > 0) throw uploadInterrupted();
  try {
    await registerBlobs(
      tx,
      files.map((f) => ({ sha256: f.sha256, size: f.size })),
    );
    await ensureFolders(tx, input.siteId, folders);
    const written = await upsertFiles(tx, input.siteId, files);
    if ((await storageUsedByUser(tx, input.userId)) > input.quotaBytes) throw quotaExceeded(input.quotaBytes);
    return written;
  } catch (error) {
    if (error instanceof PathConflictError) throw new AppError("path_conflict", 409, error.message);
    throw error;
  }
}

/** Rare: identical bytes stopped being used elsewhere, and were deleted, while this upload ran. */
export const uploadInterrupted = () =>
  new AppError(
    "upload_interrupted",
    409,
    "Upload interrupted",
    undefined,
    "The same content was being deleted elsewhere while this file uploaded. Upload it again.",
  );

function checkedPath(path: string): string {
  const result = validateSitePath(path);
  if (!result.ok) throw new AppError("invalid_path", 400, result.error);
  return result.path;
}
