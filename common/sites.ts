// The sites API: request and response schemas shared by the server, the dashboard and the CLI.
//
//   POST   /api/subdomains/reserve                     → ReserveSubdomainResponse (the user's reserved name; same one until used)
//   GET    /api/sites                                  → SiteListResponse, newest first
//   POST   /api/sites              multipart: name, description?, subdomain, then file
//                                                      → 201 SiteResponse (created, file published as version 1, active)
//   POST   /api/sites              CreateSiteRequest (JSON, common/deploys.ts)
//                                                      → 201 SiteResponse (empty, pending; subdomain from the pool)
//   GET    /api/sites/:id                              → SiteResponse
//   PATCH  /api/sites/:id          UpdateSiteRequest   → SiteResponse
//   DELETE /api/sites/:id                              → SiteResponse (marked for deletion; no longer served)
//   POST   /api/sites/:id/restore                      → SiteResponse
//   PATCH  /api/sites/:id/schedule UpdateScheduleRequest → SiteResponse (Pro; clearing both is allowed on any plan)
//   PUT    /api/sites/:id/password SetSitePasswordRequest → SiteResponse (Pro)
//   DELETE /api/sites/:id/password                     → SiteResponse (any plan)
//   GET    /api/sites/:id/files?parent=a/b             → SiteFileListResponse
//   GET    /api/sites/:id/files/manifest               → SiteManifestResponse (common/deploys.ts)
//   POST   /api/sites/:id/files    multipart: parent?, extract? ("true": unpack a zip here), then file
//                                                      → 201 UploadResponse (publishes a new deployment)
//   POST   /api/sites/:id/folders  CreateFolderRequest → 201 { file, deployment }
//   DELETE /api/sites/:id/files/:fileId                → { deployment } (a folder goes with everything in it)
//   GET    /api/sites/:id/files/:fileId/download       → the bytes, Content-Disposition: attachment
//   GET    /api/sites/:id/deployments                  → DeploymentListResponse, newest first
//   POST   /api/sites/:id/deployments                  → 201 DeploymentResponse (Deploy Now)
//   POST   /api/sites/:id/deployments/:did/rollback    → DeploymentResponse (that version is live again)
//   POST   /api/sites/:id/deployments/:did/promote     → DeploymentResponse (a draft goes live)
//   /api/sites/:id/deploys…                            the deploy API of the CLI: common/deploys.ts
//   GET    /api/stats                                  → StatsResponse
//   GET    /api/events                                 → text/event-stream of ServerEvent
//
// Errors are { error: { code, message, detail? } }; upload errors carry the toast's exact title in
// `message` and its description in `detail` (e.g. "File too large" / "Maximum file size is 50MB").
import { z } from "zod";
import { CheckSummary } from "./checks";
import { PASSWORD_MIN_LENGTH } from "./limits";
import { PLAN_FEATURES } from "./plans";
import { isOneLine } from "./names";
import { SITE_VISIBILITIES } from "./shareLinks";

export const SITE_STATUSES = ["pending", "active", "deleted"] as const;
export type SiteStatus = (typeof SITE_STATUSES)[number];
export const DEPLOYMENT_STATUSES = ["pending", "in_progress", "success", "failed"] as const;
export type DeploymentStatus = (typeof DEPLOYMENT_STATUSES)[number];

/** Days a deleted site can be restored before it is purged. */
export const DELETION_GRACE_DAYS = 14;

export const SITE_TEXT = {
  nameRequired: "Site name is required",
  nameRequiredDescription: "Please enter a name for your site",
  subdomainRequired: "Subdomain is required",
  subdomainRequiredDescription: "No subdomain was assigned. Please try again.",
  fileRequired: "File required",
  fileRequiredDescription: "Please upload at least one file to continue",
  errorAssigningSubdomain: "Error assigning subdomain",
  noSubdomains: "No available subdomains found",
  noSubdomainsInline: "No available subdomains found. Please try again later.",
  uploadFailed: "Upload failed",
  uploadSucceeded: "File uploaded successfully",
  createFailed: "Failed to create site",
  notAuthenticated: "Not authenticated",
  errorFetchingSites: "Error fetching sites",
  notFoundTitle: "Site not found",
  notFoundBody: "The site you're looking for doesn't exist or you don't have permission to view it.",
  backToSites: "Back to sites",
  loadFailed: "Failed to load site details",
  tryLater: "Please try again later.",
  deleteTitle: "Are you sure you want to delete this site?",
  deleteConfirm: "Mark for Deletion",
  deleteFailed: "Failed to delete site",
  deleted: "Site marked for deletion",
  deletedDescription: `Your site will be permanently deleted in ${DELETION_GRACE_DAYS} days. You can restore it before then.`,
  restoreFailed: "Failed to restore site",
  restored: "Site restored",
  restoredDescription: "Your site has been restored successfully.",
  restore: "Restore Site",
  deploySite: "Deploy Site",
  editSite: "Edit Site",
  delete: "Delete",
  /** 'Site marked for deletion. Will be permanently deleted in N days.' */
  deletionBanner: (days: number) => `Site marked for deletion. Will be permanently deleted in ${days} days.`,
  listActive: "Active",
  listNotDeployed: "Not Deployed",
  listMarkedForDeletion: "Marked for deletion",
  manage: "Manage",
  filesFailed: "Failed to load files",
  folderNameRequired: "Folder name required",
  folderNameRequiredDescription: "Please enter a name for the folder",
  folderFailed: "Failed to create folder",
  folderCreated: "Folder created",
  folderCreatedDescription: (name: string) => `${name} folder has been created successfully.`,
  noFiles: "No files here yet",
  noFilesDescription: "Upload files to get started or create a new folder.",
  newFolder: "New Folder",
  upload: "Upload",
  uploadFiles: "Upload Files",
  createFolderTitle: "Create New Folder",
  folderNameLabel: "Folder Name",
  folderNamePlaceholder: "Enter folder name",
  createFolder: "Create Folder",
  uploadFileTitle: "Upload File",
  recentDeployments: "Recent Deployments",
  deployNow: "Deploy Now",
  deploySuccess: "Successfully deployed",
  deployFailed: "Deployment failed",
  deployInProgress: "Deployment in progress",
  visitSite: "Visit Site",
  /** A version published as a draft (the deploy API), served on its own address only. */
  draftBadge: "Draft",
  draftBadgeTitle: "Published as a draft: only its own address serves it until it is made live",
  noDeployments: "No deployments yet",
  noDeploymentsDescription: "Upload files and deploy your site to see deployment history.",
  editSettings: "Edit Settings",
} as const;

/** Days left before a deleted site is purged: the grace period's deadline minus now, rounded up, never below 0. */
export function daysUntilPurge(deletedAt: Date, now: Date = new Date()): number {
  const deadline = deletedAt.getTime() + DELETION_GRACE_DAYS * 24 * 60 * 60 * 1000;
  return Math.max(0, Math.ceil((deadline - now.getTime()) / (24 * 60 * 60 * 1000)));
}

export const SiteResponse = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  status: z.enum(SITE_STATUSES),
  is_deleted: z.boolean(),
  deleted_at: z.string().nullable(),
  subdomain: z.string(),
  domain: z.string().nullable(),
  created_at: z.string(),
  url: z.string().describe("http://{subdomain}.{BERTH_SITES_DOMAIN}[:port]/ — where the live site is served."),
  live_deployment_id: z.string().nullable(),
  live_version: z.number().int().nullable(),
  file_count: z.number().int(),
  size: z.number().int().describe("Bytes of the site's current files."),
  expires_at: z.string().nullable().describe("ISO time after which every host of the site answers 410; null: never."),
  publish_at: z.string().nullable().describe("ISO time before which every host of the site answers 404; null: live now."),
  password_protected: z.boolean().describe("Every host of the site asks for a password first. The hash never leaves the server."),
  visibility: z
    .enum(SITE_VISIBILITIES)
    .describe('"private": the site\'s hosts answer only browsers that opened one of its share links (plans with privateSites).'),
});
export type SiteResponse = z.infer<typeof SiteResponse>;

export const SiteListResponse = z.object({
  sites: z.array(SiteResponse),
  views_7d: z.record(z.string(), z.number().int()).describe("Page views of each listed site over the last 7 days (site id → views; 0 when none)."),
});
export type SiteListResponse = z.infer<typeof SiteListResponse>;

export const ReserveSubdomainResponse = z.object({ subdomain: z.string() });
export type ReserveSubdomainResponse = z.infer<typeof ReserveSubdomainResponse>;

export const SITE_NAME_MAX = 100;
export const SITE_DESCRIPTION_MAX = 500;

const siteName = z
  .string({ error: SITE_TEXT.nameRequired })
  .trim()
  .min(1, SITE_TEXT.nameRequired)
  .max(SITE_NAME_MAX, `Site name must be at most ${SITE_NAME_MAX} characters`)
  // It is put into the owner's e-mails (a failed deployment, the weekly summary) as one line.
  .refine(isOneLine, "Site name must be a single line, without control characters");
const siteDescription = z.string().trim().max(SITE_DESCRIPTION_MAX, `Description must be at most ${SITE_DESCRIPTION_MAX} characters`);

/**
 * POST /api/sites is multipart/form-data, fields first, then one part named "file":
 * name, description (optional), subdomain (from POST /api/subdomains/reserve).
 */
export const CreateSiteFields = z.object({
  name: siteName,
  description: siteDescription.optional(),
  subdomain: z
    .string({ error: SITE_TEXT.subdomainRequired })
    .trim()
    .min(1, SITE_TEXT.subdomainRequired)
    .describe("The name POST /api/subdomains/reserve gave you."),
});
export type CreateSiteFields = z.infer<typeof CreateSiteFields>;

export const UpdateSiteRequest = z.object({
  name: siteName,
  description: siteDescription.nullable().optional().describe("null or empty clears it; absent leaves it as it is."),
});
export type UpdateSiteRequest = z.infer<typeof UpdateSiteRequest>;

export const SCHEDULE_TEXT = {
  invalidTime: "Enter a valid date and time",
  expiryInPast: "The expiry time must be in the future",
  publishAfterExpiry: "The go-live time must be before the expiry time",
  saved: "Schedule saved",
  cleared: "Schedule cleared",
  saveFailed: "Failed to save schedule",
} as const;

const scheduleTime = z.iso.datetime({ offset: true, error: SCHEDULE_TEXT.invalidTime }).nullable();

/**
 * PATCH /api/sites/:id/schedule: both times as ISO strings (UTC or with an offset), or null to
 * clear. The expiry must be in the future; a go-live time must come before the expiry.
 */
export const UpdateScheduleRequest = z
  .object({
    expiresAt: scheduleTime.describe("After this time every host of the site answers 410; null: never."),
    publishAt: scheduleTime.describe("Before this time every host of the site answers 404; null: live now."),
  })
  .superRefine((body, ctx) => {
    if (body.expiresAt !== null && Date.parse(body.expiresAt) <= Date.now()) {
      ctx.addIssue({ code: "custom", path: ["expiresAt"], message: SCHEDULE_TEXT.expiryInPast });
    }
    if (body.expiresAt !== null && body.publishAt !== null && Date.parse(body.publishAt) >= Date.parse(body.expiresAt)) {
      ctx.addIssue({ code: "custom", path: ["publishAt"], message: SCHEDULE_TEXT.publishAfterExpiry });
    }
  });
export type UpdateScheduleRequest = z.infer<typeof UpdateScheduleRequest>;

/** Where a site stands against its schedule at `now`. */
export type ScheduleState = { kind: "expired" } | { kind: "expires"; at: Date } | { kind: "scheduled"; at: Date } | { kind: "none" };

export function scheduleState(site: Pick<SiteResponse, "expires_at" | "publish_at">, now: number = Date.now()): ScheduleState {
  const expires = site.expires_at ? new Date(site.expires_at) : null;
  if (expires && expires.getTime() <= now) return { kind: "expired" };
  if (site.publish_at && Date.parse(site.publish_at) > now) return { kind: "scheduled", at: new Date(site.publish_at) };
  if (expires) return { kind: "expires", at: expires };
  return { kind: "none" };
}

export const SITE_PASSWORD_TEXT = {
  tooShort: `Use at least ${PASSWORD_MIN_LENGTH} characters`,
  tooLong: "Use at most 200 characters",
  mismatch: "The passwords do not match",
  saved: "Password saved",
  removed: "Password removed",
  saveFailed: "Failed to save password",
  removeFailed: "Failed to remove password",
} as const;

/** PUT /api/sites/:id/password: sets or changes the password; visitors' old cookies stop working. */
export const SetSitePasswordRequest = z.object({
  password: z.string().min(PASSWORD_MIN_LENGTH, SITE_PASSWORD_TEXT.tooShort).max(200, SITE_PASSWORD_TEXT.tooLong),
});
export type SetSitePasswordRequest = z.infer<typeof SetSitePasswordRequest>;

/** The dashboard's form for it: the same rule, and the password typed twice (compared once valid). */
export const SetSitePasswordForm = SetSitePasswordRequest.extend({ confirm: z.string() }).superRefine((values, ctx) => {
  if (SetSitePasswordRequest.shape.password.safeParse(values.password).success && values.confirm !== values.password)
    ctx.addIssue({ code: "custom", path: ["confirm"], message: SITE_PASSWORD_TEXT.mismatch });
});
export type SetSitePasswordForm = z.infer<typeof SetSitePasswordForm>;

export const SiteFileResponse = z.object({
  id: z.string(),
  site_id: z.string(),
  filename: z.string(),
  file_path: z.string().describe('The path inside the site, e.g. "css/site.css".'),
  file_type: z.string().nullable().describe("MIME type for files, null for folders."),
  file_size: z.number().int(),
  is_folder: z.boolean(),
  parent_folder: z.string().nullable(),
  updated_at: z.string(),
  url: z.string().nullable().describe("Public URL of the file on the live site; null for folders."),
});
export type SiteFileResponse = z.infer<typeof SiteFileResponse>;

/** GET /api/sites/:id/files?parent=a/b. */
export const SiteFilesQuery = z.object({
  parent: z.string().optional().describe('The folder to list, e.g. "a/b"; absent or empty: the root.'),
});
export type SiteFilesQuery = z.infer<typeof SiteFilesQuery>;

/** GET /api/sites/:id/files?parent=a/b (no parent: the root). Folders first, then by name. */
export const SiteFileListResponse = z.object({ files: z.array(SiteFileResponse) });
export type SiteFileListResponse = z.infer<typeof SiteFileListResponse>;

/** POST /api/sites/:id/files is multipart/form-data: these text fields first, then one part named "file". */
export const UploadFilesFields = z.object({
  parent: z.string().optional().describe('The folder to upload into, e.g. "a/b"; absent or empty: the root.'),
  extract: z.string().optional().describe('"true": unpack a zip into the folder instead of storing the zip itself.'),
});
export type UploadFilesFields = z.infer<typeof UploadFilesFields>;

export const CreateFolderRequest = z.object({
  name: z.string({ error: SITE_TEXT.folderNameRequired }).trim().min(1, SITE_TEXT.folderNameRequired),
  parent: z.string().nullable().optional().describe('The folder to create it in, e.g. "a/b"; absent or null: the root.'),
});
export type CreateFolderRequest = z.infer<typeof CreateFolderRequest>;

/** The dashboard's "Create New Folder" form: the request's name rule; the parent is the folder shown. */
export const NewFolderForm = CreateFolderRequest.pick({ name: true });
export type NewFolderForm = z.infer<typeof NewFolderForm>;

export const DeploymentResponse = z.object({
  id: z.string(),
  site_id: z.string(),
  version: z.number().int(),
  status: z.enum(DEPLOYMENT_STATUSES),
  deployment_url: z.string().nullable().describe("This version's own permanent URL: http://{subdomain}--v{version}.{domain}/"),
  created_at: z.string(),
  error: z.string().nullable(),
  file_count: z.number().int(),
  total_size: z.number().int(),
  note: z.string().nullable().describe('What produced it, e.g. "Uploaded report.pdf", "Rolled back to version 2".'),
  is_live: z.boolean(),
  /** Published as a draft and not promoted: served on deployment_url only, never live. */
  draft: z.boolean(),
  /** The publish check's summary (GET …/check for its findings); null for versions published before checks existed. */
  check: CheckSummary.nullable(),
});
export type DeploymentResponse = z.infer<typeof DeploymentResponse>;

export const DeploymentListResponse = z.object({ deployments: z.array(DeploymentResponse) });
export type DeploymentListResponse = z.infer<typeof DeploymentListResponse>;

export const UploadResponse = z.object({
  files: z.array(SiteFileResponse),
  deployment: DeploymentResponse,
});
export type UploadResponse = z.infer<typeof UploadResponse>;

export const FolderResponse = z.object({ file: SiteFileResponse, deployment: DeploymentResponse });
export type FolderResponse = z.infer<typeof FolderResponse>;

/** DELETE /api/sites/:id/files/:fileId: the deployment that published the change. */
export const DeleteFileResponse = z.object({ deployment: DeploymentResponse });
export type DeleteFileResponse = z.infer<typeof DeleteFileResponse>;

/** GET /api/stats: the overview's figures, and the user's plan with its limits and features. */
export const StatsResponse = z.object({
  total_sites: z.number().int(),
  deployments: z.number().int(),
  storage_used: z.number().int(),
  storage_quota: z.number().int().nullable().describe("The plan's storage; null: unlimited."),
  max_file_bytes: z.number().int().nullable().describe("The plan's largest file; null: any size that fits the storage left."),
  plan: z.string().describe("The id of one of the server's plans (GET /api/config)."),
  plan_name: z.string(),
  features: z
    .record(z.enum(PLAN_FEATURES), z.boolean())
    .describe("What the user's plan allows: the dashboard offers a feature, or the way to a plan that has it, by these."),
  deployments_kept: z.number().int().nullable().describe("Deployments kept per site besides the live one; null keeps every one."),
  bandwidth_30d: z.number().int().describe("Bytes the edge sent for all the user's sites over the last 30 days (analytics roll-ups)."),
});
export type StatsResponse = z.infer<typeof StatsResponse>;

/** Server-sent events on GET /api/events, one JSON object per `data:` line. */
export const ServerEvent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("deployment"), site_id: z.string(), deployment: DeploymentResponse }),
  z.object({ type: z.literal("site"), site_id: z.string() }),
  /** A custom domain of the site changed (added, a provisioning step, failed, removed): refetch it. */
  z.object({ type: z.literal("domain"), site_id: z.string(), domain_id: z.string().optional() }),
  /** New analytics roll-ups for the site: an open Analytics tab refetches. */
  z.object({ type: z.literal("analytics"), site_id: z.string() }),
  /** A notice was added to the user's feed: the bell refetches its count and list. */
  z.object({ type: z.literal("notification"), notification_id: z.string() }),
]);
export type ServerEvent = z.infer<typeof ServerEvent>;
