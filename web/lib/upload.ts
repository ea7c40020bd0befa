// Multipart uploads with real progress. fetch() cannot report upload progress, so this uses
// XMLHttpRequest. Fields are appended before the file: the server reads them first, while the
// file is still streaming.
import { ApiError, toApiError } from "./api";

export interface UploadOptions {
  fields?: Record<string, string | undefined>;
  /** Called with 0..1 as bytes leave the browser. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

export function uploadFile<T>(url: string, file: File, options: UploadOptions = {}): Promise<T> {
  const form = new FormData();
  for (const [name, value] of Object.entries(options.fields ?? {})) {
    if (value !== undefined) form.append(name, value);
  }
  form.append("file", file, file.name);

  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    xhr.responseType = "text";
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) options.onProgress?.(event.loaded / event.total);
    };
    xhr.onload = () => {
      let body: unknown;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        body = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as T);
      else reject(toApiError(xhr.status, body));
    };
    xhr.onerror = () => reject(new ApiError(0, "network", "The upload was interrupted. Check your connection and try again."));
    xhr.onabort = () => reject(new ApiError(0, "aborted", "The upload was cancelled."));
    options.signal?.addEventListener("abort", () => xhr.abort());
    xhr.send(form);
  });
}
