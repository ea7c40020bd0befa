// A site's history in the Files tab: each file's and folder's versions, files deleted since an
// earlier version, restoring any of them, restoring the whole site as it was at a moment (Pro),
// and comparing two deployments. Every restore publishes a new version; nothing old is rewritten.
//
//   GET  /api/sites/:id/history?path=a/b.html           → HistoryResponse (a file's versions)
//   GET  /api/sites/:id/history?path=a&folder=true      → HistoryResponse (a folder's; no path: the site's)
//   GET  /api/sites/:id/history/deleted                 → DeletedFilesResponse
//   GET  /api/sites/:id/history/live-periods            → LivePeriodsResponse (which version was live when)
//   GET  /api/sites/:id/deployments/:did/download?path= → the file as it was in that version (attachment)
//   POST /api/sites/:id/history/restore                 → 201 RestoreResponse (a file or folder as of a version)
//   POST /api/sites/:id/history/restore-at              → 201 RestoreResponse (the site as it was at a time; Pro)
//   GET  /api/sites/:id/compare?from=&to=&path=         → CompareResponse (with a line diff of `path`)
import { z } from "zod";
import { DeploymentResponse } from "./sites";

const MB = 1024 * 1024;

/** Text files up to this size get a line diff; larger ones are compared by size and content only. */
export const DIFF_MAX_BYTES = 1 * MB;
/** A diff stops after this many lines of output, and says so. */
export const DIFF_MAX_LINES = 4000;
/** Lines of unchanged text shown around each change. */
export const DIFF_CONTEXT_LINES = 3;

export const HISTORY_TEXT = {
  title: "History",
  restore: "Restore this version",
  restoreTitle: (what: string, version: number) => `Restore ${what} from version ${version}?`,
  restoreBody: "This publishes a new version with it put back. Nothing else on the site changes, and every earlier version stays as it is.",
  restoreFolderBody:
    "This publishes a new version in which the folder holds exactly what it held then: files added to it since are removed. Nothing outside the folder changes.",
  restored: "Restored",
  restoredBody: (what: string, version: number) => `${what} is back as it was in version ${version}, and live now.`,
  restoreFailed: "Could not restore",
  noHistory: "No earlier versions",
  noHistoryBody: "Versions appear here once a deployment changes this.",
  showDeleted: "Show deleted files",
  hideDeleted: "Hide deleted files",
  deletedTitle: "Deleted files",
  noDeleted: "No deleted files",
  noDeletedBody: "Files removed in a kept version would appear here, ready to restore.",
  restoreAt: "Restore the site as it was at…",
  restoreAtTitle: "Restore the site as it was at a moment",
  restoreAtBody: "Pick a date and time. Berth publishes a new version with exactly the files that were live then; nothing old is rewritten.",
  restoreAtConfirm: "Restore site",
  restoreAtNothing: "Nothing of this site was live at that time.",
  restoreAtFuture: "Choose a time in the past.",
  restoreAtInvalid: "Enter a date and time.",
  restoredAt: (version: number) => `The site is back as it was, from version ${version}, and live now.`,
  versionNotKept: "This version is no longer kept, so it cannot be restored or opened.",
  /** `everyVersion`: the first plan that keeps every version (firstPlanWith), if any does. */
  versionNotKeptOnPlan: (kept: number, everyVersion: string | undefined) =>
    `This version is no longer kept, so it cannot be restored or opened. Your plan keeps the last ${kept} versions of each site${everyVersion ? `; ${everyVersion} keeps every version` : ""}.`,
  keptOnPlan: (kept: number, everyVersion: string | undefined) =>
    `Your plan keeps the last ${kept} versions of each site, so history reaches back that far.${everyVersion ? ` ${everyVersion} keeps every version.` : ""}`,
  contentMissing: "The stored content of this version is missing, so it cannot be restored.",
  notInVersion: "That version has no file at this path.",
  compare: "Compare",
  compareTitle: "Compare versions",
  compareSame: "These versions have the same files.",
  needTwoVersions: "There is nothing to compare yet: the site has one version.",
} as const;

export const HistoryQuery = z.object({
  path: z.string().optional().describe('A file or folder of the site, e.g. "docs/a.html"; absent or empty: the whole site.'),
  folder: z.enum(["true", "false"]).optional().describe('"true": the path is a folder (its whole contents). Implied when there is no path.'),
});
export type HistoryQuery = z.infer<typeof HistoryQuery>;

export const HistoryVersion = z.object({
  deployment_id: z.string(),
  version: z.number().int(),
  published_at: z.string(),
  change: z.enum(["added", "changed"]).describe("added: not in the version before (new, or back after a deletion)."),
  size: z.number().int().describe("The file's size, or the total of the folder's files."),
  file_count: z.number().int().describe("1 for a file; the number of files under a folder."),
  content_type: z.string().nullable().describe("A file's MIME type; null for a folder."),
  is_current: z.boolean().describe("The working tree holds exactly this version now."),
  url: z.string().nullable().describe("A file as this version serves it, on its version host; null for a folder."),
});
export type HistoryVersion = z.infer<typeof HistoryVersion>;

export const HistoryResponse = z.object({
  path: z.string(),
  folder: z.boolean(),
  versions: z.array(HistoryVersion).describe("Newest first: every kept version in which this changed."),
  versions_kept: z.number().int().nullable().describe("How many versions of each site the plan keeps; null: every one."),
});
export type HistoryResponse = z.infer<typeof HistoryResponse>;

export const DeletedFile = z.object({
  path: z.string(),
  deployment_id: z.string().describe("The last kept version that had the file: restore from it."),
  version: z.number().int(),
  size: z.number().int(),
  deleted_in_version: z.number().int(),
  deleted_at: z.string(),
});
export type DeletedFile = z.infer<typeof DeletedFile>;

export const DeletedFilesResponse = z.object({ files: z.array(DeletedFile) });
export type DeletedFilesResponse = z.infer<typeof DeletedFilesResponse>;

export const LivePeriod = z.object({
  version: z.number().int(),
  deployment_id: z.string().nullable().describe("null: that version is no longer kept."),
  from: z.string(),
  until: z.string().nullable().describe("null: live now."),
});
export type LivePeriod = z.infer<typeof LivePeriod>;

export const LivePeriodsResponse = z.object({
  periods: z.array(LivePeriod).describe("Newest first: each time the live version changed (a publish, rollback or promotion)."),
});
export type LivePeriodsResponse = z.infer<typeof LivePeriodsResponse>;

export const VersionFileQuery = z.object({ path: z.string().min(1).describe('The file\'s path in that version, e.g. "docs/a.html".') });
export type VersionFileQuery = z.infer<typeof VersionFileQuery>;

export const RestoreVersionRequest = z.object({
  deploymentId: z.string().describe("The version to take it from."),
  path: z.string().describe("A file or folder; empty with folder: the whole site."),
  folder: z.boolean().optional().describe("true: restore the folder's whole contents as they were."),
});
export type RestoreVersionRequest = z.infer<typeof RestoreVersionRequest>;

export const RestoreAtRequest = z.object({
  at: z.iso.datetime({ offset: true, error: HISTORY_TEXT.restoreAtInvalid }).describe("The moment whose live files to restore."),
});
export type RestoreAtRequest = z.infer<typeof RestoreAtRequest>;

export const RestoreResponse = z.object({
  deployment: DeploymentResponse.describe("The new version that put it back (failed, with the reason, if it could not publish)."),
  restored_version: z.number().int().describe("The version it was restored from."),
});
export type RestoreResponse = z.infer<typeof RestoreResponse>;

export const CompareQuery = z.object({
  from: z.string().optional().describe("The older deployment's id; absent: the version before `to`."),
  to: z.string().optional().describe("The newer deployment's id; absent: the live one."),
  path: z.string().optional().describe("A file that differs between them: adds its line diff."),
});
export type CompareQuery = z.infer<typeof CompareQuery>;

export const DiffLine = z.object({
  op: z.enum(["same", "add", "remove"]),
  text: z.string(),
  from_line: z.number().int().nullable(),
  to_line: z.number().int().nullable(),
});
export type DiffLine = z.infer<typeof DiffLine>;

export const FileDiff = z.object({
  path: z.string(),
  kind: z.enum(["text", "binary", "too_large"]).describe(`text: lines below; too_large: over ${DIFF_MAX_BYTES / MB} MB on either side.`),
  hunks: z.array(z.object({ lines: z.array(DiffLine) })),
  truncated: z.boolean().describe(`The diff went past ${DIFF_MAX_LINES} lines, or had too many changes to align, and stops there.`),
});
export type FileDiff = z.infer<typeof FileDiff>;

const CompareSide = z.object({ deployment_id: z.string(), version: z.number().int(), published_at: z.string() });

export const CompareResponse = z.object({
  from: CompareSide,
  to: CompareSide,
  added: z.array(z.object({ path: z.string(), size: z.number().int() })),
  changed: z.array(z.object({ path: z.string(), from_size: z.number().int(), to_size: z.number().int(), text: z.boolean() })),
  removed: z.array(z.object({ path: z.string(), size: z.number().int() })),
  diff: FileDiff.nullable(),
});
export type CompareResponse = z.infer<typeof CompareResponse>;

/** The dashboard's "Restore the site as it was at…" form: a local date and time from the picker, in the past. */
export const RestoreAtForm = z.object({
  at: z
    .string()
    .min(1, HISTORY_TEXT.restoreAtInvalid)
    .refine((value) => !Number.isNaN(Date.parse(value)), HISTORY_TEXT.restoreAtInvalid)
    .refine((value) => Date.parse(value) <= Date.now(), HISTORY_TEXT.restoreAtFuture),
});
export type RestoreAtForm = z.infer<typeof RestoreAtForm>;

/** The period in which `at` falls (periods newest first, as the API sends them), if any. */
export function periodAt<P extends { from: string; until: string | null }>(periods: readonly P[], at: Date): P | undefined {
  const time = at.getTime();
  return periods.find((p) => Date.parse(p.from) <= time && (p.until === null || time < Date.parse(p.until)));
}
