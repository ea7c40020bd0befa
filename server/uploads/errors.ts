// Why an upload was refused, as a value with a code (never told apart by its text). It is an
// AppError, so a route that lets it through answers `{ error: { code, message, detail } }`: the
// toast's title as the message ('File too large') and its description as the detail.
import { AppError } from "../errors";
import { UPLOAD_TEXT, formatUploadLimit } from "../../common/uploads";
import { formatPlanBytes } from "../../common/plans";
import { formatCount } from "../../common/format";

export type UploadErrorCode =
  | "unsupported_type"
  | "file_too_large"
  | "quota_exceeded"
  | "invalid_name"
  | "zip_invalid"
  | "zip_empty"
  | "zip_encrypted"
  | "zip_unsafe_path"
  | "zip_symlink"
  | "zip_special_file"
  | "zip_duplicate_path"
  | "zip_too_many_entries"
  | "zip_too_large"
  | "tar_invalid"
  | "tar_hard_link"
  | "storage_full";

const STATUS: Record<UploadErrorCode, number> = {
  unsupported_type: 415,
  file_too_large: 413,
  quota_exceeded: 413,
  zip_too_large: 413,
  invalid_name: 400,
  zip_invalid: 400,
  zip_empty: 400,
  zip_encrypted: 400,
  zip_unsafe_path: 400,
  zip_symlink: 400,
  zip_special_file: 400,
  zip_duplicate_path: 400,
  zip_too_many_entries: 400,
  tar_invalid: 400,
  tar_hard_link: 400,
  // Insufficient Storage: the server's disk, not the user's plan (that is quota_exceeded's 413).
  storage_full: 507,
};

export class UploadError extends AppError {
  constructor(
    override readonly code: UploadErrorCode,
    readonly title: string,
    readonly description: string,
  ) {
    super(code, STATUS[code], title, undefined, description);
    this.name = "UploadError";
  }
}

/** The disk under the data directory is full (storage/outOfSpace.ts): the operator's to fix. */
export const storageFull = () => new UploadError("storage_full", UPLOAD_TEXT.storageFullTitle, UPLOAD_TEXT.storageFullDescription);

export const unsupportedType = () => new UploadError("unsupported_type", UPLOAD_TEXT.unsupportedTitle, UPLOAD_TEXT.unsupportedDescription);

export const fileTooLarge = (maxBytes: number) =>
  new UploadError("file_too_large", UPLOAD_TEXT.tooLargeTitle, UPLOAD_TEXT.tooLargeDescription(maxBytes));

/** `quotaBytes`: the plan's whole storage, named so the user knows the limit they hit; `detail` when the numbers are known. */
export const quotaExceeded = (
  quotaBytes: number,
  detail = `This upload would take your storage past your plan's ${formatPlanBytes(quotaBytes)}. Delete files or sites you no longer need, or ask the operator for a bigger plan.`,
) => new UploadError("quota_exceeded", "Storage full", detail);

export const invalidName = (reason: string) => new UploadError("invalid_name", "Invalid file name", reason);

/** Names come from the archive, so they are shown escaped and cut short: never raw control bytes. */
export function displayName(name: string): string {
  // eslint-disable-next-line no-control-regex
  const visible = name.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return visible.length > 200 ? `${visible.slice(0, 200)}…` : visible;
}

const ZIP_TITLE = "Archive refused";

export const zipError = {
  invalid: (detail: string) => new UploadError("zip_invalid", "Invalid archive", `The file is not a valid zip archive, or it is damaged: ${detail}`),
  empty: () => new UploadError("zip_empty", ZIP_TITLE, "The archive contains no files."),
  encrypted: (name: string) => new UploadError("zip_encrypted", ZIP_TITLE, `The archive contains a password-protected file: ${displayName(name)}`),
  unsupportedMethod: (name: string, method: number) =>
    new UploadError(
      "zip_invalid",
      "Invalid archive",
      `The archive uses a compression method Berth cannot read (${method}) for: ${displayName(name)}`,
    ),
  unsafePath: (name: string, reason: string) =>
    new UploadError("zip_unsafe_path", ZIP_TITLE, `The archive contains an unsafe path: ${displayName(name)} (${reason})`),
  symlink: (name: string) =>
    new UploadError("zip_symlink", ZIP_TITLE, `The archive contains a symbolic link, which is not allowed: ${displayName(name)}`),
  specialFile: (name: string) =>
    new UploadError("zip_special_file", ZIP_TITLE, `The archive contains a device, pipe or socket, which is not allowed: ${displayName(name)}`),
  duplicate: (name: string) => new UploadError("zip_duplicate_path", ZIP_TITLE, `The archive contains the path ${displayName(name)} more than once`),
  fileAndFolder: (name: string) =>
    new UploadError("zip_duplicate_path", ZIP_TITLE, `The archive contains both a file and a folder named ${displayName(name)}`),
  tooManyEntries: (maxEntries: number) =>
    new UploadError("zip_too_many_entries", ZIP_TITLE, `The archive has more than ${formatCount(maxEntries)} entries`),
  tooLarge: (maxTotalBytes: number) =>
    new UploadError("zip_too_large", ZIP_TITLE, `The archive unpacks to more than ${formatUploadLimit(maxTotalBytes)}`),
  fileTooLarge: (name: string, maxBytes: number) =>
    new UploadError("file_too_large", UPLOAD_TEXT.tooLargeTitle, `${UPLOAD_TEXT.tooLargeDescription(maxBytes)} (${displayName(name)} is larger)`),
};

/** A tar's own refusals; what it shares with zips (paths, links, devices, sizes) is zipError's. */
export const tarError = {
  invalid: (detail: string) =>
    new UploadError("tar_invalid", "Invalid archive", `The file is not a valid tar archive (or .tar.gz), or it is damaged: ${detail}`),
  hardLink: (name: string) =>
    new UploadError("tar_hard_link", ZIP_TITLE, `The archive contains a hard link, which is not allowed: ${displayName(name)}`),
};
