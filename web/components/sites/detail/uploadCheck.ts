// The checks made before a file leaves the browser; the server makes the same ones and its
// answer is what counts. Returns the spec's toast, or null when the file may be sent.
import {
  isAllowedUpload,
  MAX_UPLOAD_BYTES,
  UPLOAD_TEXT,
} from "../../../../common/uploads";

export interface UploadProblem {
  title: string;
  description: string;
}

export function checkUpload(
  file: { name: string; type: string; size: number },
  maxBytes: number = MAX_UPLOAD_BYTES,
): UploadProblem | null {
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
