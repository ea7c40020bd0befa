// What a file must be before it leaves the browser, for the wizard and the Files tab alike. The
// server makes the same checks and its answer is what counts; these only save a doomed upload.
import { ALLOWED_EXTENSIONS, ALLOWED_MIME_TYPES, isAllowedUpload, MAX_UPLOAD_BYTES, UPLOAD_TEXT } from "../../../common/uploads";

/** The picker's `accept`: extensions and MIME types, so it offers the files the server takes. */
export const UPLOAD_ACCEPT = [...ALLOWED_EXTENSIONS.map((ext) => `.${ext}`), ...new Set(Object.values(ALLOWED_MIME_TYPES).flat())].join(",");

export interface UploadProblem {
  title: string;
  description: string;
}

/** The toast, in its exact wording, for the first thing wrong (the type, then the plan's size limit), or null. */
export function checkUpload(file: { name: string; type: string; size: number }, maxBytes: number = MAX_UPLOAD_BYTES): UploadProblem | null {
  if (!isAllowedUpload(file.name, file.type)) {
    return {
      title: UPLOAD_TEXT.unsupportedTitle,
      description: UPLOAD_TEXT.unsupportedDescription,
    };
  }
  if (file.size > maxBytes) {
    return {
      title: UPLOAD_TEXT.tooLargeTitle,
      description: UPLOAD_TEXT.tooLargeDescription(maxBytes),
    };
  }
  return null;
}
