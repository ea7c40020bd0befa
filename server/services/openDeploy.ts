// Opening a deploy through the API: the manifest is checked and the plan's limits applied to it
// before a single byte is sent, then the server answers which digests it still needs. Only the
// user's own files count as held: knowing the digest of someone else's file must not be enough
// to publish it, so another user's copy of the same bytes is asked for all the same.
import { DEPLOY_OPEN_HOURS, DEPLOY_TEXT, type CreateDeployRequest } from "../../common/deploys";
import { UPLOAD_TEXT } from "../../common/uploads";
import { byteLimit, type Plan } from "../../common/plans";
import { randomUUID } from "node:crypto";
import type { AppContext } from "../context";
import type { Executor } from "../db/client";
import {
  deleteExpiredOpenDeploy,
  digestsNotStoredByUser,
  getDeployForUser,
  insertOrFindOpenDeploy,
  type Deploy,
  type StoredManifestEntry,
} from "../db/repositories/deploys";
import { getDeploymentById, type Deployment } from "../db/repositories/deployments";
import { storageUsedByUser } from "../db/repositories/usage";
import { AppError } from "../errors";
import { quotaExceeded, UploadError } from "../uploads/errors";
import { deployDigests, digestsOfManifest, stillMissing } from "./deployDigests";
import { manifestHash, normaliseFolders, normaliseManifest } from "./deployManifest";
import { planOf } from "./planPolicy";
import { UUID } from "./siteAccess";

type Parsed = { files: CreateDeployRequest["files"]; folders?: string[]; message: string | null; draft: boolean };

export interface OpenedDeploy {
  deploy: Deploy;
  /** False: the same manifest, message and draft flag already had an open deploy, which this is. */
  created: boolean;
  missing: string[];
}

/** Opens a deploy for `files` on the user's site (the caller checked it is theirs and not deleted). */
export async function openDeploy(
  ctx: Pick<AppContext, "db" | "plans">,
  userId: string,
  siteId: string,
  request: Parsed,
  now = new Date(),
): Promise<OpenedDeploy> {
  const manifest = normaliseManifest(request.files);
  const folders = normaliseFolders(request.folders ?? [], manifest);
  const plan = await planOf(ctx, userId);
  requireFilesWithinPlan(manifest, plan);
  const hash = manifestHash(manifest, request.message, request.draft, folders);
  return insertDeploy(ctx, { userId, siteId, manifest, folders, hash, message: request.message, draft: request.draft, plan }, now);
}

/**
 * Records a deploy of a normalised manifest (and its empty folders, normalised) and answers what it still needs; refuses it when the
 * files the user does not store yet would take the account past its storage. `hash` null: a
 * deploy that is never resumed (the one-request archive). Files too large for the plan are the
 * caller's to refuse first.
 */
export async function insertDeploy(
  ctx: Pick<AppContext, "db">,
  input: {
    userId: string;
    siteId: string;
    manifest: StoredManifestEntry[];
    folders: string[];
    hash: string | null;
    message: string | null;
    draft: boolean;
    plan: Plan;
  },
  now = new Date(),
): Promise<OpenedDeploy> {
  const digests = digestsOfManifest(input.manifest);
  const opened = await ctx.db.transaction(async (tx) => {
    if (input.hash !== null) await deleteExpiredOpenDeploy(tx, input.siteId, input.hash, now);
    const { deploy, created } = await insertOrFindOpenDeploy(tx, {
      id: randomUUID(),
      site_id: input.siteId,
      user_id: input.userId,
      manifest: input.manifest,
      folders: input.folders,
      manifest_hash: input.hash,
      file_count: input.manifest.length,
      total_size: input.manifest.reduce((sum, f) => sum + f.size, 0),
      message: input.message,
      draft: input.draft,
      expires_at: new Date(now.getTime() + DEPLOY_OPEN_HOURS * 60 * 60 * 1000),
    });
    const needed = await digestsNotStoredByUser(tx, deploy.id, input.userId, [...digests.keys()]);
    await requireStorageFor(
      tx,
      input.userId,
      input.plan,
      needed.map((d) => digests.get(d.sha256)!),
    );
    return { deploy, created, missing: needed.filter((d) => !d.received).map((d) => d.sha256) };
  });
  // Its file requests and publish check against these; they need not read the manifest back.
  deployDigests.remember(opened.deploy.id, digests);
  return opened;
}

/** 413 file_too_large for the first file over the plan's largest file, naming it and both sizes. */
export function requireFilesWithinPlan(manifest: readonly StoredManifestEntry[], plan: Plan): void {
  const maxFileBytes = byteLimit(plan.maxFileBytes);
  const tooLarge = manifest.find((f) => f.size > maxFileBytes);
  if (tooLarge)
    throw new UploadError("file_too_large", UPLOAD_TEXT.tooLargeTitle, DEPLOY_TEXT.fileTooLarge(tooLarge.path, tooLarge.size, maxFileBytes));
}

/** What the account stores now plus the new files must fit the plan's storage; the publish checks again, under the quota's lock. */
async function requireStorageFor(db: Executor, userId: string, plan: Plan, needed: readonly { size: number }[]): Promise<void> {
  const adding = needed.reduce((sum, d) => sum + d.size, 0);
  const used = await storageUsedByUser(db, userId);
  const storageBytes = byteLimit(plan.storageBytes);
  if (used + adding > storageBytes) throw quotaExceeded(storageBytes, DEPLOY_TEXT.storageExceeded(used, adding, storageBytes));
}

/** The user's deploy on the site: 404 for a missing one, someone else's, or an id that is not one. */
export async function requireDeploy(db: Executor, userId: string, siteId: string, deployId: string): Promise<Deploy> {
  const deploy = UUID.test(deployId) ? await getDeployForUser(db, userId, siteId, deployId) : undefined;
  if (!deploy) throw new AppError("deploy_not_found", 404, DEPLOY_TEXT.deployNotFound);
  return deploy;
}

/** A deploy that still takes files: 409 once it was published, failed or expired. */
export function requireOpen(deploy: Deploy, now = new Date()): void {
  if (deploy.status !== "uploading" || deploy.expires_at.getTime() <= now.getTime()) throw deployClosed();
}

export const deployClosed = () => new AppError("deploy_closed", 409, DEPLOY_TEXT.deployClosed);

/**
 * What a deploy's answer shows besides its row: the version it published, and what it still needs.
 * `known` holds what the caller has just worked out: the missing digests when it opened the deploy,
 * the version when it published it. Only what is not known is read.
 */
export async function deployState(
  db: Executor,
  deploy: Deploy,
  known?: { missing?: string[]; deployment?: Deployment },
): Promise<{ deployment: Deployment | undefined; missing: string[] }> {
  const [deployment, missing] = await Promise.all([
    deploy.deployment_id
      ? known?.deployment?.id === deploy.deployment_id
        ? known.deployment
        : getDeploymentById(db, deploy.deployment_id)
      : undefined,
    known?.missing ?? (deploy.status === "uploading" ? stillMissing(db, deploy, await deployDigests.read(db, deploy.id)) : []),
  ]);
  return { deployment, missing };
}
