// The deploy API: how the `berth` CLI, CI jobs and curl publish a folder, sending only the files
// the server does not hold yet. Shared by the server and the CLI.
//
// Incremental, in three steps or two (each safe to retry after a network error):
//   POST /api/sites/:siteId/deploys                 CreateDeployRequest (application/json): the files,
//        and the empty folders to keep (a manifest lists files only)
//        → 201 DeployResponse with `missing`: the digests to upload. Nothing is uploaded yet, and
//          the plan's limits (file size, storage) are checked against the manifest first.
//          The same manifest, message and draft flag sent again while that deploy is still
//          open → 200 with the same deploy, so a rerun after a crash resumes it.
//   PUT  /api/sites/:siteId/deploys/:deployId/files/:sha256   the file's bytes (application/octet-stream)
//        → 204. The server streams them to the blob store and checks digest and size against the
//          manifest. Sending a digest already received again → 204.
//   POST /api/sites/:siteId/deploys/:deployId/files  an uncompressed tar (application/x-tar)
//        whose entries are plain files named by their digest: many small files in one request.
//        Any entry that is not one of the deploy's files, of its size, once, refuses the whole tar.
//        → 200 DeployResponse (what is still missing).
//   POST /api/sites/:siteId/deploys/:deployId/publish  → 200 DeployResponse, `deployment` set.
//        Its body may be the last missing files, as the tar above (application/x-tar): they are
//        stored first, so a small change takes two requests in all (the CLI and the dashboard do
//        so up to WITH_PUBLISH_BYTES, common/folderDeploy.ts). Atomic, exactly as a dashboard upload: the `_redirects` and `_headers` checks, then a new
//        version, live at once, or a draft served on its own host `{sub}--v{n}` until promoted.
//        Publishing a deploy already published answers the same deployment again. A bad
//        `_redirects` line is a 200 with status "failed" and `error` (the live site unchanged);
//        files still missing are a 409 and a full account a 413, both leaving the deploy open.
//   GET  /api/sites/:siteId/deploys/:deployId       → DeployResponse
//   GET  /api/sites/:siteId/files/manifest          → SiteManifestResponse: the working tree's
//        files as a manifest, to deploy a change to part of a site and keep the rest.
//
// In one request (for curl):
//   POST /api/sites/:siteId/deploys?draft=true&message=…   body: a zip (application/zip) or a
//        .tar.gz (application/gzip or application/x-gzip) of the folder → 201 DeployResponse,
//        published. Unpacked as a zip uploaded in the dashboard is (its limits; a single top
//        folder, and a leading "./", are stripped).
//
// Around it:
//   POST /api/sites                 CreateSiteRequest (application/json) → 201 SiteResponse: an
//        empty site whose subdomain comes from the pool (or is the caller's reservation), ready
//        for its first deploy (full permission).
//   POST /api/sites/:siteId/deployments/:deploymentId/promote  → DeploymentResponse (a draft goes live)
//   POST /api/sites/:siteId/deployments/:deploymentId/rollback → DeploymentResponse (existing)
//
// A deploy that is never published never touches the live site. The worker deletes every deploy
// once it is older than DEPLOY_OPEN_HOURS (its GET then answers 404; a version it published stays
// in the deployments list), and with an unpublished one the bytes only it uploaded.
// Tokens: creating, uploading, publishing and promoting need "deploy"; reading, "read".
import { z } from "zod";
import { formatPlanBytes } from "./plans";
import { CreateSiteFields } from "./sites";
import { formatUploadLimit } from "./uploads";
import { formatCount } from "./format";

const bytes = (n: number) => `${formatCount(n)} bytes`;

/** The most files one deploy may hold. */
export const DEPLOY_MAX_FILES = 50_000;
/** The most empty folders one deploy may bring. */
export const DEPLOY_MAX_FOLDERS = 10_000;
/** The longest a message may be. */
export const DEPLOY_MESSAGE_MAX = 500;
/** Hours an unpublished deploy stays open before the sweep removes it. */
export const DEPLOY_OPEN_HOURS = 24;

export const SHA256_HEX = /^[0-9a-f]{64}$/;

/** The largest manifest (the JSON body that opens a deploy): 50,000 entries of ordinary paths fit in it. */
export const DEPLOY_MANIFEST_MAX_BYTES = 16 * 1024 * 1024;

export const DEPLOY_TEXT = {
  tooManyFiles: `A deploy can hold at most ${formatCount(DEPLOY_MAX_FILES)} files`,
  tooManyFolders: `A deploy can bring at most ${formatCount(DEPLOY_MAX_FOLDERS)} empty folders`,
  emptyFolderPath: "A folder's path is empty",
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
  path: z.string().min(1).describe('A path inside the site, "/"-separated, relative: "index.html", "css/site.css".'),
  sha256: z.string().regex(SHA256_HEX, DEPLOY_TEXT.badDigest),
  size: z.number().int().min(0),
});
export type ManifestEntry = z.infer<typeof ManifestEntry>;

/**
 * GET /api/sites/:siteId/files/manifest: every file of the site's working tree (what the Files tab
 * shows) as a deploy's manifest, by path, and its empty folders. The dashboard adds a dropped
 * folder to it, so the deploy it opens keeps every other file and folder and uploads only the new files.
 */
export const SiteManifestResponse = z.object({
  files: z.array(ManifestEntry),
  folders: z.array(z.string()).describe("The working tree's empty folders, by path (a folder holding a file is implied by its path)."),
});
export type SiteManifestResponse = z.infer<typeof SiteManifestResponse>;

export const CreateDeployRequest = z.object({
  files: z.array(ManifestEntry).min(1, DEPLOY_TEXT.emptyManifest).max(DEPLOY_MAX_FILES, DEPLOY_TEXT.tooManyFiles),
  folders: z
    .array(z.string().min(1, DEPLOY_TEXT.emptyFolderPath))
    .max(DEPLOY_MAX_FOLDERS, DEPLOY_TEXT.tooManyFolders)
    .default([])
    .describe('Empty folders to keep, "/"-separated like a file\'s path: "images", "docs/drafts". A folder that holds a file needs no entry.'),
  message: z.string().trim().max(DEPLOY_MESSAGE_MAX).nullable().default(null),
  draft: z.boolean().default(false).describe("true: publish as a draft, served on `{sub}--v{n}` only until promoted."),
});
export type CreateDeployRequest = z.input<typeof CreateDeployRequest>;

/** The query of a deploy in one request (`?draft=true&message=…`): the same message rule as a manifest. */
export const DeployArchiveQuery = z.object({
  draft: z.enum(["true", "false"]).default("false"),
  message: z.string().trim().max(DEPLOY_MESSAGE_MAX).optional(),
});
export type DeployArchiveQuery = z.input<typeof DeployArchiveQuery>;

/**
 * The same name and description rules as the wizard. The subdomain is optional: without it the
 * pool gives one (the CLI, CI); with it, the one POST /api/subdomains/reserve reserved for you
 * (the dashboard's wizard, which shows the address before the site exists, then deploys a folder).
 */
export const CreateSiteRequest = CreateSiteFields.extend({ subdomain: CreateSiteFields.shape.subdomain.optional() });
export type CreateSiteRequest = z.input<typeof CreateSiteRequest>;

export const DEPLOY_STATUSES = ["uploading", "published", "failed"] as const;
export type DeployStatus = (typeof DEPLOY_STATUSES)[number];

export const DeployResponse = z.object({
  id: z.string(),
  site_id: z.string(),
  status: z.enum(DEPLOY_STATUSES),
  draft: z.boolean(),
  message: z.string().nullable(),
  file_count: z.number().int(),
  total_size: z.number().int(),
  missing: z.array(z.string()).describe("Digests the server still needs, each once. Empty: ready to publish."),
  deployment: z
    .object({
      id: z.string(),
      version: z.number().int(),
      status: z.string(),
      deployment_url: z.string().nullable(),
      error: z.string().nullable(),
    })
    .nullable()
    .describe("Set once published: the new version (its `deployment_url` is a draft's address)."),
  site_url: z.string().nullable().describe("The live address of the site (what the CLI prints for a live deploy)."),
  error: z.string().nullable().describe("Why it failed (a bad _redirects line, say), else null."),
  created_at: z.string(),
  expires_at: z.string().describe("When an unpublished deploy is removed."),
});
export type DeployResponse = z.infer<typeof DeployResponse>;
