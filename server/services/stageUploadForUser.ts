import path from "node:path";
import { byteLimit } from "../../common/plans";
import type { AppContext } from "../context";
import { storageUsedByUser } from "../db/repositories/usage";
import { planOf } from "./planPolicy";
import { stageUpload, type IncomingFile, type StagedUpload } from "./stageUpload";

/**
 * Streams an uploaded file into the blob store under the user's plan limits (largest file, and
 * what is left of the storage quota); `quotaBytes` is the quota the commit checks again.
 */
export async function stageUploadForUser(
  ctx: AppContext,
  userId: string,
  file: IncomingFile,
  options: { extractZip: boolean },
): Promise<{ staged: StagedUpload; quotaBytes: number }> {
  const plan = await planOf(ctx, userId);
  const usedBytes = await storageUsedByUser(ctx.db, userId);
  const staged = await stageUpload(ctx, file, { extractZip: options.extractZip, plan, usedBytes, tmpDir: path.join(ctx.env.dataDir, "tmp") });
  return { staged, quotaBytes: byteLimit(plan.storageBytes) };
}
