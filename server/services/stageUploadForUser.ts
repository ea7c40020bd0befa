import path from "node:path";
import type { MultipartFile } from "@fastify/multipart";
import { PLANS } from "../../../common/plans";
import type { AppContext } from "../../context";
import { getPlanIdForUser } from "../../db/repositories/profiles";
import { storageUsedByUser } from "../../db/repositories/usage";
import { stageUpload, type StagedUpload } from "../../services/stageUpload";

/** Streams an uploaded file into the blob store under the user's plan limits. */
export async function stageForUser(
  ctx: AppContext,
  userId: string,
  file: MultipartFile,
  options: { extractZip: boolean },
): Promise<{ staged: StagedUpload; quotaBytes: number }> {
  const plan = PLANS[await getPlanIdForUser(ctx.db, userId)];
  const usedBytes = await storageUsedByUser(ctx.db, userId);
  const staged = await stageUpload(
    ctx,
    { filename: file.filename, mimetype: file.mimetype, stream: file.file },
    { extractZip: options.extractZip, plan, usedBytes, tmpDir: path.join(ctx.env.dataDir, "tmp") },
  );
  return { staged, quotaBytes: plan.storageBytes };
}
