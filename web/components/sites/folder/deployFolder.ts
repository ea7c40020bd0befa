// Publishing a dropped folder as one deployment through the deploy API (common/deploys.ts), the
// way the berth CLI does: hash every file here, send the manifest, upload only the digests the
// server reports missing, then publish (a small change travels in the publish's own body). The
// publish is one transaction on the server, so until it answers the live site is exactly as it
// was, and a failure anywhere leaves it so; sending the same manifest and message again resumes
// the same deploy, so a retry sends only what is still missing.
import { DEPLOY_MAX_FILES, type DeployResponse, type ManifestEntry, type SiteManifestResponse } from "../../../../common/deploys";
import {
  planUploads,
  sendWithPublish,
  TAR_END_BYTES,
  tarHeader,
  tarPaddingSize,
  UPLOAD_CONCURRENCY,
  type UploadJob,
} from "../../../../common/folderDeploy";
import { SITE_TEXT } from "../../../../common/sites";
import { FOLDER_TEXT } from "../../../../common/uploads";
import { api, ApiError } from "../../../lib/api";
import { sendBlob } from "../../../lib/upload";
import { hashFiles, mapWithinBudget, type HashedFile } from "./hashFiles";
import { FolderProblem, type FolderFile } from "./readFolder";

export interface Count {
  files: number;
  bytes: number;
}

export type FolderPhase =
  | { kind: "hashing"; done: Count; total: Count }
  /** `unchanged`: files of the folder the server already holds, which are not sent. */
  | { kind: "uploading"; done: Count; total: Count; unchanged: number }
  | { kind: "publishing" };

export interface FolderDeploy {
  siteId: string;
  /** The folder's files, at their paths in the site. */
  files: readonly FolderFile[];
  /** The folder's empty folders, at their paths in the site. */
  folders?: readonly string[];
  /**
   * The site's files and empty folders to keep beside them (the Files tab), read just before the
   * deploy opens, so a change made meanwhile elsewhere is in it; where a path meets one of
   * `files`, the folder's wins.
   */
  keep?: () => Promise<SiteManifestResponse>;
  /** The deployment's note. */
  message: string;
  signal: AbortSignal;
  onPhase: (phase: FolderPhase) => void;
}

/** Progress is shown at most this often: a folder of thousands of files would otherwise re-render for each. */
const REPORT_EVERY_MS = 100;

export async function deployFolder(input: FolderDeploy): Promise<DeployResponse> {
  const report = throttled(input.onPhase);
  const total: Count = { files: input.files.length, bytes: input.files.reduce((sum, f) => sum + f.file.size, 0) };
  report({ kind: "hashing", done: { files: 0, bytes: 0 }, total });
  const hashed = await hashFiles(input.files, {
    signal: input.signal,
    onProgress: (done) => report({ kind: "hashing", done, total }, done.files === total.files),
  });

  const kept = input.keep ? await input.keep() : { files: [], folders: [] };
  const manifest = mergeManifest(kept.files, hashed);
  if (manifest.length > DEPLOY_MAX_FILES) throw new FolderProblem(FOLDER_TEXT.tooManyTitle, FOLDER_TEXT.tooManyDescription(DEPLOY_MAX_FILES));
  const folders = mergeFolders(kept.folders, input.folders ?? [], manifest);
  const base = `/api/sites/${encodeURIComponent(input.siteId)}/deploys`;
  const opened = await api<DeployResponse>(base, {
    method: "POST",
    json: { files: manifest, folders, message: input.message, draft: false },
    signal: input.signal,
  });

  const toSend = filesToSend(hashed, opened.missing);
  const deployUrl = `${base}/${encodeURIComponent(opened.id)}`;
  // A small change goes in the publish's own body: two requests in all (sendWithPublish).
  const withPublish = sendWithPublish(toSend);
  if (!withPublish) {
    const sending: Count = { files: toSend.length, bytes: toSend.reduce((sum, f) => sum + f.size, 0) };
    const needed = new Set(opened.missing);
    const unchanged = hashed.filter((f) => !needed.has(f.sha256)).length;
    await upload(deployUrl, toSend, input.signal, (done) =>
      report({ kind: "uploading", done, total: sending, unchanged }, done.files === sending.files),
    );
  }

  report({ kind: "publishing" });
  const published = withPublish
    ? await refusedAsChanged(sendBlob<DeployResponse>("POST", `${deployUrl}/publish`, tarOf(toSend), "application/x-tar", { signal: input.signal }))
    : await api<DeployResponse>(`${deployUrl}/publish`, { method: "POST", json: {}, signal: input.signal });
  // A bad _redirects or _headers line: the deploy is recorded as failed and nothing went live.
  if (published.status === "failed") throw new ApiError(422, "publish_failed", published.error ?? SITE_TEXT.deployFailed);
  return published;
}

/**
 * The deploy's manifest: the site's files to keep, then the folder's, which replace any kept file
 * of the same path. Sorted by path, so the same folder dropped again is the same manifest (and a
 * retry resumes the deploy the first try opened).
 */
export function mergeManifest(keep: readonly ManifestEntry[], files: readonly Pick<HashedFile, "path" | "sha256" | "size">[]): ManifestEntry[] {
  const byPath = new Map<string, ManifestEntry>();
  for (const entry of keep) byPath.set(entry.path, { path: entry.path, sha256: entry.sha256, size: entry.size });
  for (const file of files) byPath.set(file.path, { path: file.path, sha256: file.sha256, size: file.size });
  return [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * The deploy's empty folders: the site's and the dropped folder's, sorted, without any that a file
 * of the manifest now fills or stands at (a kept empty folder the drop put a file into, or over).
 */
export function mergeFolders(keep: readonly string[], dropped: readonly string[], manifest: readonly Pick<ManifestEntry, "path">[]): string[] {
  const files = new Set(manifest.map((f) => f.path));
  const filled = new Set<string>();
  for (const path of files) for (let slash = path.indexOf("/"); slash !== -1; slash = path.indexOf("/", slash + 1)) filled.add(path.slice(0, slash));
  const atOrInFile = (folder: string) => folder.split("/").some((_, i, parts) => files.has(parts.slice(0, i + 1).join("/")));
  const folders = new Set([...keep, ...dropped].filter((folder) => !filled.has(folder) && !atOrInFile(folder)));
  return [...folders].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** One file for each digest the server asked for: the same bytes at two paths go once. */
export function filesToSend(files: readonly HashedFile[], missing: readonly string[]): HashedFile[] {
  const wanted = new Set(missing);
  const chosen = new Map<string, HashedFile>();
  for (const file of files) if (wanted.has(file.sha256) && !chosen.has(file.sha256)) chosen.set(file.sha256, file);
  return [...chosen.values()];
}

/**
 * Sends the files the way the CLI does (planUploads): each large one alone as a PUT, so it streams
 * from disk and a failure costs only it; the small ones many to a tar (POST …/files), because a
 * request per small file would spend more on round trips than on bytes; a lone small file as a
 * PUT, so a redeploy that changed one file sends one request. UPLOAD_CONCURRENCY at a time.
 */
async function upload(deployUrl: string, files: HashedFile[], signal: AbortSignal, onProgress: (done: Count) => void): Promise<void> {
  const jobs = planUploads(files);
  const finished: Count = { files: 0, bytes: 0 };
  const partial = new Map<UploadJob<HashedFile>, number>();
  const tell = () => {
    let bytes = finished.bytes;
    for (const sent of partial.values()) bytes += sent;
    onProgress({ files: finished.files, bytes });
  };
  tell();
  await mapWithinBudget(jobs, { concurrency: UPLOAD_CONCURRENCY, budget: Infinity, weight: () => 0, signal }, async (job) => {
    const members = job.kind === "file" ? [job.file] : job.files;
    const bytes = members.reduce((sum, f) => sum + f.size, 0);
    // The browser reports bytes of the body; a tar's headers are a sliver of it, so its fraction is the files' fraction.
    const onFraction = (fraction: number) => {
      partial.set(job, Math.round(bytes * fraction));
      tell();
    };
    await refusedAsChanged(
      job.kind === "file"
        ? sendBlob(`PUT`, `${deployUrl}/files/${job.file.sha256}`, job.file.file, "application/octet-stream", { signal, onProgress: onFraction })
        : sendBlob(`POST`, `${deployUrl}/files`, tarOf(job.files), "application/x-tar", { signal, onProgress: onFraction }),
    );
    partial.delete(job);
    finished.files += members.length;
    finished.bytes += bytes;
    tell();
  });
}

/** A send whose bytes the server refused as not the listed ones: a file edited since it was hashed here, as the user is told. */
async function refusedAsChanged<T>(sending: Promise<T>): Promise<T> {
  try {
    return await sending;
  } catch (error) {
    if (error instanceof ApiError && (error.code === "digest_mismatch" || error.code === "size_mismatch"))
      throw new FolderProblem(SITE_TEXT.uploadFailed, FOLDER_TEXT.changedDescription);
    throw error;
  }
}

/** An uncompressed tar of the files, each named by its digest; a Blob of Files, read from disk only as it is sent. */
export function tarOf(files: readonly HashedFile[]): Blob {
  const parts: BlobPart[] = [];
  for (const file of files) {
    parts.push(tarHeader(file.sha256, file.size), file.file);
    const padding = tarPaddingSize(file.size);
    if (padding > 0) parts.push(new Uint8Array(padding));
  }
  parts.push(new Uint8Array(TAR_END_BYTES));
  return new Blob(parts);
}

/** Passes phases on at most every REPORT_EVERY_MS, and always a step's first and, when `last` says so, its final one. */
function throttled(onPhase: (phase: FolderPhase) => void): (phase: FolderPhase, last?: boolean) => void {
  let at = -Infinity;
  let kind: FolderPhase["kind"] | null = null;
  return (phase, last = false) => {
    const now = performance.now();
    if (!last && phase.kind === kind && now - at < REPORT_EVERY_MS) return;
    at = now;
    kind = phase.kind;
    onPhase(phase);
  };
}
