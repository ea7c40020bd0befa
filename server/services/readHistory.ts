// Reading a site's history: a file's or folder's versions, the files deleted since a kept
// version, which version was live when, one file as a version had it, and what changed between
// two versions (with a line diff of a text file). The caller has found the site among the user's
// own (the ownSite guard), so every query here is already scoped to the owner.
import type { Readable } from "node:stream";
import {
  DIFF_CONTEXT_LINES,
  DIFF_MAX_BYTES,
  DIFF_MAX_LINES,
  HISTORY_TEXT,
  type CompareResponse,
  type DeletedFile,
  type FileDiff,
  type HistoryResponse,
  type LivePeriod,
} from "../../common/history";
import { firstPlanWith } from "../../common/featureRequired";
import { versionsKept, type Plan, type PlanCatalog } from "../../common/plans";
import { validateSitePath } from "../../common/uploads";
import type { AppContext } from "../context";
import { getDeploymentForSite, listDeploymentsForSite, type Deployment } from "../db/repositories/deployments";
import {
  deletedFiles,
  fileVersions,
  folderVersions,
  livePeriodsOfSite,
  manifestDifferences,
  manifestEntry,
  type ManifestDifference,
  type ManifestEntry,
} from "../db/repositories/history";
import { findSiteFileByPath } from "../db/repositories/siteFiles";
import type { Site } from "../db/repositories/sites";
import { AppError } from "../errors";
import { diffLines, hunksOf, splitLines } from "../history/lineDiff";
import { BlobNotFoundError } from "../storage/blobStore";
import { planOf } from "./planPolicy";
import { UUID } from "./siteAccess";

type Ctx = Pick<AppContext, "db" | "plans" | "blobs" | "urls">;

/** A path from a query or body: "" (or only slashes) is the site's root (null); anything unsafe is a 400. */
export function historyPath(value: string | undefined): string | null {
  const trimmed = (value ?? "").replace(/^\/+|\/+$/g, "");
  if (trimmed === "") return null;
  const checked = validateSitePath(trimmed);
  if (!checked.ok) throw new AppError("invalid_path", 400, checked.error);
  return checked.path;
}

/** A file's versions, or a folder's (the whole site's when `path` is null), newest first. */
export async function readHistory(ctx: Ctx, site: Site, path: string | null, folder: boolean): Promise<HistoryResponse> {
  const kept = versionsKept(await planOf(ctx, site.user_id));
  if (!folder && path !== null) {
    const [rows, current] = await Promise.all([fileVersions(ctx.db, site.id, path), findSiteFileByPath(ctx.db, site.id, path)]);
    const currentIndex = current && !current.is_folder ? rows.findIndex((r) => r.sha256 === current.sha256) : -1;
    return {
      path,
      folder: false,
      versions_kept: kept,
      versions: rows.map((r, i) => ({
        deployment_id: r.deployment_id,
        version: r.version,
        published_at: r.published_at.toISOString(),
        change: r.added ? "added" : "changed",
        size: r.size,
        file_count: 1,
        content_type: r.content_type,
        is_current: i === currentIndex,
        url: ctx.urls.deployment(site.subdomain, r.version) + path.split("/").map(encodeURIComponent).join("/"),
      })),
    };
  }
  const [rows, exists, liveDeployment] = await Promise.all([
    folderVersions(ctx.db, site.id, path),
    path === null ? Promise.resolve(true) : findSiteFileByPath(ctx.db, site.id, path).then((f) => f?.is_folder === true),
    site.live_deployment_id ? getDeploymentForSite(ctx.db, site.id, site.live_deployment_id) : undefined,
  ]);
  // The working tree is the live version's files (each change publishes at once, a rollback resets
  // it), so the folder is as the newest of its versions at or before the live one.
  const live = liveDeployment?.version ?? 0;
  const currentIndex = exists ? rows.findIndex((r) => r.version <= live) : -1;
  return {
    path: path ?? "",
    folder: true,
    versions_kept: kept,
    versions: rows.map((r, i) => ({
      deployment_id: r.deployment_id,
      version: r.version,
      published_at: r.published_at.toISOString(),
      change: r.added ? "added" : "changed",
      size: r.size,
      file_count: r.file_count,
      content_type: null,
      is_current: i === currentIndex,
      url: null,
    })),
  };
}

export async function readDeletedFiles(ctx: Ctx, site: Site): Promise<DeletedFile[]> {
  const rows = await deletedFiles(ctx.db, site.id);
  return rows.map((r) => ({
    path: r.path,
    deployment_id: r.deployment_id,
    version: r.version,
    size: r.size,
    deleted_in_version: r.deleted_in_version,
    deleted_at: r.deleted_at.toISOString(),
  }));
}

/** Each time the live version changed, newest first, with when it stopped being live. */
export async function readLivePeriods(ctx: Ctx, site: Site): Promise<LivePeriod[]> {
  const rows = await livePeriodsOfSite(ctx.db, site.id);
  return rows
    .map((r, i) => ({
      version: r.version,
      deployment_id: r.deployment_id,
      from: r.started_at.toISOString(),
      until: rows[i + 1]?.started_at.toISOString() ?? null,
    }))
    .reverse();
}

/**
 * A kept version of the site, or the clear refusal for one that is not (pruned since the page
 * showed it, or never this site's): 404, as for any id that is not the user's, naming how many
 * versions the plan keeps.
 */
export async function keptVersion(
  ctx: Pick<AppContext, "db" | "plans">,
  site: Pick<Site, "id" | "user_id">,
  deploymentId: string,
): Promise<Deployment> {
  const deployment = UUID.test(deploymentId) ? await getDeploymentForSite(ctx.db, site.id, deploymentId) : undefined;
  if (deployment?.status === "success") return deployment;
  if (deployment) throw new AppError("deployment_not_published", 409, "Only a published version can be opened or restored.");
  throw versionNotKept(ctx.plans, await planOf(ctx, site.user_id));
}

/**
 * The answer for a version that is not among the site's kept ones: a 404 that says how far history
 * reaches, and which of the server's plans keeps every version, if one does.
 */
export function versionNotKept(plans: PlanCatalog, plan: Plan): AppError {
  const kept = versionsKept(plan);
  const message = kept === null ? HISTORY_TEXT.versionNotKept : HISTORY_TEXT.versionNotKeptOnPlan(kept, firstPlanWith(plans, "fileVersioning")?.name);
  return new AppError("version_not_kept", 404, message);
}

/** One file as a kept version had it, with its bytes. */
export async function openVersionFile(ctx: Ctx, site: Site, deploymentId: string, path: string): Promise<{ entry: ManifestEntry; stream: Readable }> {
  const deployment = await keptVersion(ctx, site, deploymentId);
  const entry = await manifestEntry(ctx.db, site.id, deployment.id, path);
  if (!entry) throw new AppError("file_not_found", 404, HISTORY_TEXT.notInVersion);
  try {
    return { entry, stream: await ctx.blobs.get(entry.sha256) };
  } catch (error) {
    if (error instanceof BlobNotFoundError) throw new AppError("file_missing", 410, HISTORY_TEXT.contentMissing);
    throw error;
  }
}

/**
 * What changed from one kept version to another: files added, changed and removed, and for
 * `path`, when it changed and is text on both sides, a line diff (each side at most DIFF_MAX_BYTES,
 * so the work and the answer stay bounded). `to` defaults to the live version, `from` to the
 * published version before `to`.
 */
export async function compareVersions(
  ctx: Ctx,
  site: Site,
  query: { from?: string | undefined; to?: string | undefined; path: string | null },
): Promise<CompareResponse> {
  const to = query.to ? await keptVersion(ctx, site, query.to) : await liveOrNewest(ctx, site);
  const from = query.from ? await keptVersion(ctx, site, query.from) : await publishedBefore(ctx, site, to);
  const differences = await manifestDifferences(ctx.db, from.id, to.id);
  const added = differences.filter((d) => d.from_sha256 === null);
  const removed = differences.filter((d) => d.to_sha256 === null);
  const changed = differences.filter((d) => d.from_sha256 !== null && d.to_sha256 !== null);
  const target = query.path === null ? undefined : differences.find((d) => d.path === query.path);
  if (query.path !== null && !target) throw new AppError("file_not_changed", 404, "That file is the same in both versions, or in neither.");
  return {
    from: side(from),
    to: side(to),
    added: added.map((d) => ({ path: d.path, size: d.to_size! })),
    changed: changed.map((d) => ({ path: d.path, from_size: d.from_size!, to_size: d.to_size!, text: isText(d.from_type) && isText(d.to_type) })),
    removed: removed.map((d) => ({ path: d.path, size: d.from_size! })),
    diff: target ? await diffOf(ctx, target) : null,
  };
}

async function liveOrNewest(ctx: Ctx, site: Site): Promise<Deployment> {
  if (site.live_deployment_id) return keptVersion(ctx, site, site.live_deployment_id);
  const newest = (await listDeploymentsForSite(ctx.db, site.id)).find((d) => d.status === "success");
  if (!newest) throw new AppError("nothing_to_compare", 409, HISTORY_TEXT.needTwoVersions);
  return newest;
}

async function publishedBefore(ctx: Ctx, site: Site, to: Deployment): Promise<Deployment> {
  const before = (await listDeploymentsForSite(ctx.db, site.id)).find((d) => d.status === "success" && d.version < to.version);
  if (!before) throw new AppError("nothing_to_compare", 409, HISTORY_TEXT.needTwoVersions);
  return before;
}

const side = (d: Deployment) => ({ deployment_id: d.id, version: d.version, published_at: (d.published_at ?? d.created_at).toISOString() });

const TEXT_TYPES = /^(text\/|application\/(json|javascript|ecmascript|xml|xhtml\+xml|ld\+json|manifest\+json|x-sh)|image\/svg\+xml)/i;
const isText = (type: string | null) => type !== null && TEXT_TYPES.test(type);

async function diffOf(ctx: Ctx, d: ManifestDifference): Promise<FileDiff> {
  const empty = { path: d.path, hunks: [], truncated: false };
  if ((d.from_size ?? 0) > DIFF_MAX_BYTES || (d.to_size ?? 0) > DIFF_MAX_BYTES) return { ...empty, kind: "too_large" };
  const types = [d.from_type, d.to_type].filter((t) => t !== null);
  if (!types.every(isText)) return { ...empty, kind: "binary" };
  const [before, after] = await Promise.all([readText(ctx, d.from_sha256), readText(ctx, d.to_sha256)]);
  if (before === null || after === null) return { ...empty, kind: "binary" };
  const { hunks, truncated } = hunksOf(diffLines(splitLines(before), splitLines(after)), DIFF_CONTEXT_LINES, DIFF_MAX_LINES);
  return { path: d.path, kind: "text", hunks, truncated };
}

/** A blob as UTF-8 text: "" for no blob (the side the file is absent from), null when it is not text. */
async function readText(ctx: Ctx, sha256: string | null): Promise<string | null> {
  if (sha256 === null) return "";
  let raw: string;
  try {
    const stream = await ctx.blobs.get(sha256);
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    const bytes = Buffer.concat(chunks);
    if (bytes.includes(0)) return null;
    raw = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (error) {
    if (error instanceof BlobNotFoundError) throw new AppError("file_missing", 410, HISTORY_TEXT.contentMissing);
    if (error instanceof TypeError) return null;
    throw error;
  }
  return raw;
}
