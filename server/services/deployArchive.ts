// A deploy in one request, for curl: the body is the folder as a zip or a .tar.gz, unpacked under
// the same rules and limits as a zip uploaded in the dashboard, then opened and published as a
// deploy made in steps would be (openDeploy.ts, publishDeploy.ts), so both ways publish alike.
// Refused at any step, it leaves nothing: the blobs it created go, and so does the deploy.
import path from "node:path";
import type { Readable } from "node:stream";
import { byteLimit } from "../../common/plans";
import type { AppContext } from "../context";
import { deleteDeploy, type Deploy } from "../db/repositories/deploys";
import { storageUsedByUser } from "../db/repositories/usage";
import type { ExtractedArchive } from "../uploads/archiveLayout";
import { extractTarGz } from "../uploads/extractTar";
import { extractZip } from "../uploads/extractZip";
import { zipLimitsFor } from "../uploads/limits";
import { receiveToTempFile } from "../uploads/receiveFile";
import { normaliseFolders, normaliseManifest } from "./deployManifest";
import { insertDeploy } from "./openDeploy";
import { planOf } from "./planPolicy";
import { publishDeploy, type PublishedDeploy } from "./publishDeploy";
import { recordReceived } from "./receiveDeployFiles";
import { deleteUnreferencedBytes } from "./releaseBlobs";

export type ArchiveKind = "zip" | "tar.gz";

export async function deployArchive(
  ctx: AppContext,
  input: { userId: string; siteId: string; kind: ArchiveKind; body: Readable; message: string | null; draft: boolean },
): Promise<PublishedDeploy> {
  const plan = await planOf(ctx, input.userId);
  const used = await storageUsedByUser(ctx.db, input.userId);
  const discard = (shas: string[]) => deleteUnreferencedBytes(ctx, shas);
  const archive = await unpack(ctx, input.kind, input.body, { plan, used, discard });
  const created = archive.files.filter((f) => f.created).map((f) => f.sha256);
  let deploy: Deploy | undefined;
  try {
    const manifest = normaliseManifest(archive.files);
    // The archive's empty folders are kept, as in a zip uploaded in the dashboard.
    const folders = normaliseFolders(archive.folders, manifest);
    deploy = (
      await insertDeploy(ctx, {
        userId: input.userId,
        siteId: input.siteId,
        manifest,
        folders,
        hash: null,
        message: input.message,
        draft: input.draft,
        plan,
      })
    ).deploy;
    await recordReceived(ctx, deploy, archive.files);
    const published = await publishDeploy(ctx, input.userId, input.siteId, deploy.id);
    // A failed publish (a bad _redirects line) keeps its record; the bytes only it brought go now.
    if (published.deploy.status !== "published") await discard(created);
    return published;
  } catch (error) {
    if (deploy) await deleteDeploy(ctx.db, deploy.id).catch(() => undefined);
    await discard(created).catch(() => undefined);
    throw error;
  }
}

async function unpack(
  ctx: AppContext,
  kind: ArchiveKind,
  body: Readable,
  options: { plan: Awaited<ReturnType<typeof planOf>>; used: number; discard: (shas: string[]) => Promise<void> },
): Promise<ExtractedArchive> {
  const limits = zipLimitsFor(options.plan, options.used);
  if (kind === "tar.gz")
    return extractTarGz(body, ctx.blobs, { ...limits, maxCompressedBytes: byteLimit(options.plan.maxFileBytes) }, options.discard);
  // yauzl reads the central directory at the end first, so a zip waits in the data directory's tmp/.
  const temp = await receiveToTempFile(body, path.join(ctx.env.dataDir, "tmp"), byteLimit(options.plan.maxFileBytes));
  try {
    return await extractZip(temp.path, ctx.blobs, limits, options.discard);
  } finally {
    await temp.remove();
  }
}
