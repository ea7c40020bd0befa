// POST /api/sites with the wizard's fields and file, reporting the two phases the user sees:
// bytes leaving the browser (real progress), then the server publishing (no progress to report).
import type { CreateSiteFields, SiteResponse } from "../../../common/sites";
import { uploadFile } from "../../lib/upload";
import type { UploadPhase } from "./UploadProgress";

export function upload(file: File, input: CreateSiteFields, signal: AbortSignal, onPhase: (phase: UploadPhase) => void): Promise<SiteResponse> {
  return uploadFile<SiteResponse>("/api/sites", file, {
    fields: {
      name: input.name,
      description: input.description || undefined,
      subdomain: input.subdomain,
    },
    signal,
    // The last progress event comes when every byte is sent; the server then still unpacks and
    // publishes, which the indeterminate "Publishing…" state covers.
    onProgress: (fraction) => onPhase(fraction >= 1 ? { kind: "publishing" } : { kind: "uploading", fraction }),
  });
}
