// The deploy API: how the `berth` CLI, CI jobs and curl publish a folder, sending only the files
// the server does not hold yet. Shared by the server and the CLI.
//
// Incremental, in three steps (each safe to retry after a network error):
//   POST /api/sites/:siteId/deploys                 CreateDeployRequest (application/json)
//        → 201 DeployResponse with `missing`: the digests to upload. Nothing is uploaded yet, and
//          the plan's limits (file size, storage) are checked against the manifest first.
//          The same manifest, message and draft flag sent again while that deploy is still
//          open → 200 with the same deploy, so a rerun after a crash resumes it.
//   PUT  /api/sites/:siteId/deploys/:deployId/files/:sha256   the file's bytes (application/octet-stream)
//        → 204. The server streams them to the blob store and checks digest and size against the
//          manifest. Sending a digest already received again → 204.
//   POST /api/sites/:siteId/deploys/:deployId/files  an uncompressed tar (application/x-tar)
//        whose entries are named by their digest: many small files in one request.
//        → 200 DeployResponse (what is still missing).
//   POST /api/sites/:siteId/deploys/:deployId/publish  → 200 DeployResponse, `deployment` set.
//        Atomic, exactly as a dashboard upload: the `_redirects` and `_headers` checks, then a new
//        version, live at once, or a draft served on its own host `{sub}--v{n}` until promoted.
//        Publishing a deploy already published answers the same deployment again.
//   GET  /api/sites/:siteId/deploys/:deployId       → DeployResponse
//
// In one request (for curl):
//   POST /api/sites/:siteId/deploys?draft=true&message=…   body: a zip (application/zip) or a
//        .tar.gz (application/gzip) of the folder → 201 DeployResponse, published.
//
// Around it:
//   POST /api/sites                 CreateSiteRequest (application/json) → 201 SiteResponse: an
//        empty site whose subdomain comes from the pool, ready for its first deploy (full permission).
//   POST /api/sites/:siteId/deployments/:deploymentId/promote  → DeploymentResponse (a draft goes live)
//   POST /api/sites/:siteId/deployments/:deploymentId/rollback → DeploymentResponse (existing)
//
// A deploy that is never published never touches the live site; the worker deletes it, and the
// bytes only it uploaded, once it is older than DEPLOY_OPEN_HOURS.
// Tokens: creating, uploading, publishing and promoting need "deploy"; reading, "read".
import { z } from "zod";
import { formatPlanBytes } from "./plans";
import { CreateSiteFields } from "./sites";
import { formatUploadLimit } from "./uploads";

const bytes = (n: number) => `${n.toLocaleString("en-US")} bytes`;

/** The most files one deploy may hold. */
export const DEPLOY_MAX_FILES = 50_000;
/** The longest a message may be. */
export const DEPLOY_MESSAGE_MAX = 500;
/** Hours an unpublished deploy stays open before the sweep removes it. */
export const DEPLOY_OPEN_HOURS = 24;

export const SHA256_HEX = /^[0-9a-f]{64}$/;

/** The largest manifest (the JSON body that opens a deploy): 50,000 entries of ordinary paths fit in it. */
export const DEPLOY_MANIFEST_MAX_BYTES = 16 * 1024 * 1024;

export const DEPLOY_TEXT = {
  tooManyFiles: `A deploy can hold at most ${DEPLOY_MAX_FILES.toLocaleString("en-US")} files`,
  duplicatePath: (path: string) => `The manifest lists ${path} twice`,
  invalidPath: (path: string, reason: string) => `${reason}: ${path}`,
  fileAndFolder: (path: string) => `The manifest has both a file and a folder named ${path}`,
  sizeConflict: (sha256: string) => `The manifest gives the digest ${sha256} two different sizes`,
  badDigest: "A file's sha256 must be 64 lowercase hexadecimal characters",
  emptyManifest: "There are no files to deploy",
  notInManifest: (sha256: string) => `No file in this deploy has the digest ${sha256}`,
  digestMismatch: (sha256: string) => `The bytes sent do not match the digest ${sha256}`,
  sizeMismatch: (path: string, expected: number, got: number) => `${path} should be ${expected} bytes, but ${got} were sent`,
  /** The body ran past the manifest's size, and the server stopped reading it there. */
  sizeExceeded: (path: string, expected: number) => `${path} should be ${expected} bytes, but more were sent`,
  /** Before any byte: one file of the manifest is over the plan's largest file. */
  fileTooLarge: (path: string, size: number, maxBytes: number) =>
    `${path} is ${bytes(size)}; the largest file your plan allows is ${formatUploadLimit(maxBytes)} (${bytes(maxBytes)})`,
  /** Before any byte: the files the account does not store yet would take it past its plan's storage. */
  storageExceeded: (used: number, adding: number, quota: number) =>
    `This deploy would take your storage past your plan's ${formatPlanBytes(quota)}: it adds ${bytes(adding)} to the ${bytes(used)} you store, and the limit is ${bytes(quota)}. Delete files or sites you no longer need, or ask the operator for a bigger plan.`,
  unsupportedBody: "Send a JSON manifest, a zip (application/zip) or a .tar.gz (application/gzip)",
  tarRequired: "Send the files as an uncompressed tar (application/x-tar)",
  stillMissing: (count: number) => `${count} ${count === 1 ? "file has" : "files have"} not been uploaded yet`,
  deployNotFound: "Deploy not found",
  deployClosed: "This deploy was already published or has expired; start a new one",
  notADraft: "Only a draft can be promoted; use rollback for an older version",
} as const;

export const ManifestEntry = z.object({
  /** A path inside the site, "/"-separated, relative: "index.html", "css/site.css". */
  path: z.string().min(1),
  sha256: z.string().regex(SHA256_HEX, DEPLOY_TEXT.badDigest),
  size: z.number().int().min(0),
});
export type ManifestEntry = z.infer<typeof ManifestEntry>;

export const CreateDeployRequest = z.object({
  files: z.array(ManifestEntry).min(1, DEPLOY_TEXT.emptyManifest).max(DEPLOY_MAX_FILES, DEPLOY_TEXT.tooManyFiles),
  message: z.string().trim().max(DEPLOY_MESSAGE_MAX).nullable().default(null),
  /** true: publish as a draft, served on `{sub}--v{n}` only until promoted. */
  draft: z.boolean().default(false),
});
export type CreateDeployRequest = z.input<typeof CreateDeployRequest>;

/** The query of a deploy in one request (`?draft=true&message=…`): the same message rule as a manifest. */
export const DeployArchiveQuery = z.object({
  draft: z.enum(["true", "false"]).default("false"),
  message: z.string().trim().max(DEPLOY_MESSAGE_MAX).optional(),
});
export type DeployArchiveQuery = z.input<typeof DeployArchiveQuery>;

/** The same name and description rules as the wizard; no subdomain: the pool gives one. */
export const CreateSiteRequest = CreateSiteFields.omit({ subdomain: true });
export type CreateSiteRequest = z.input<typeof CreateSiteRequest>;

export const DEPLOY_STATUSES = ["uploading", "published", "failed"] as const;
export type DeployStatus = (typeof DEPLOY_STATUSES)[number];

export interface DeployResponse {
  id: string;
  site_id: string;
  status: DeployStatus;
  draft: boolean;
  message: string | null;
  file_count: number;
  total_size: number;
  /** Digests the server still needs, each once. Empty: ready to publish. */
  missing: string[];
  /** Set once published: the new version (its `deployment_url` is the draft's address). */
  deployment: {
    id: string;
    version: number;
    status: string;
    deployment_url: string | null;
    error: string | null;
  } | null;
  /** The live address of the site (what the CLI prints for a live deploy). */
  site_url: string | null;
  /** Why it failed (a bad _redirects line, say), else null. */
  error: string | null;
  created_at: string;
  /** When an unpublished deploy is removed. */
  expires_at: string;
}
