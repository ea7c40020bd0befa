// What a file must be before it leaves the browser, for the wizard and the Files tab alike. The
// server makes the same checks and its answer is what counts; these only save a doomed upload.
import { DEPLOY_TEXT } from "../../../common/deploys";
import { ALLOWED_EXTENSIONS, ALLOWED_MIME_TYPES, isAllowedUpload, MAX_UPLOAD_BYTES, UPLOAD_TEXT } from "../../../common/uploads";

/** The picker's `accept`: extensions and MIME types, so it offers the files the server takes. */
export const UPLOAD_ACCEPT = [...ALLOWED_EXTENSIONS.map((ext) => `.${ext}`), ...new Set(Object.values(ALLOWED_MIME_TYPES).flat())].join(",");

export interface UploadProblem {
  title: string;
  description: string;
}

/**
 * The toast, in its exact wording, for the first thing wrong (the type, then the plan's size
 * limit; null: the plan sets none), or null.
 */
export function checkUpload(file: { name: string; type: string; size: number }, maxBytes: number | null = MAX_UPLOAD_BYTES): UploadProblem | null {
  if (!isAllowedUpload(file.name, file.type)) {
    return {
      title: UPLOAD_TEXT.unsupportedTitle,
      description: UPLOAD_TEXT.unsupportedDescription,
    };
  }
  if (maxBytes !== null && file.size > maxBytes) {
    return {
      title: UPLOAD_TEXT.tooLargeTitle,
      description: UPLOAD_TEXT.tooLargeDescription(maxBytes),
    };
  }
  return null;
}

/**
 * A file of a dropped folder: any type goes (a folder is a site, as the deploy API takes it), up
 * to the plan's largest file, refused in the words the server would use. The browser hashes a
 * file only whole, in memory, so one the server would refuse is not even read.
 */
export function checkFolderFile(path: string, size: number, maxBytes: number | null): UploadProblem | null {
  // A plan without a largest file leaves the size to the server (the account's storage).
  if (maxBytes === null || size <= maxBytes) return null;
  return { title: UPLOAD_TEXT.tooLargeTitle, description: DEPLOY_TEXT.fileTooLarge(path, size, maxBytes) };
}
