// Uploads with real progress. fetch() cannot report upload progress, so this uses
// XMLHttpRequest: a multipart form (a file with its fields), or a body of its own (a deploy's
// files: one file, or a tar of many).
import { ApiError, toApiError } from "./api";

export interface UploadOptions {
  fields?: Record<string, string | undefined>;
  /** Called with 0..1 as bytes leave the browser. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

/** A multipart POST. Fields are appended before the file: the server reads them first, while the file is still streaming. */
export function uploadFile<T>(url: string, file: File, options: UploadOptions = {}): Promise<T> {
  const form = new FormData();
  for (const [name, value] of Object.entries(options.fields ?? {})) {
    if (value !== undefined) form.append(name, value);
  }
  form.append("file", file, file.name);
  return send<T>("POST", url, form, undefined, options);
}

/**
 * `body` as it is, with its type: a Blob made of Files is read from disk as it is sent, so
 * nothing here holds the bytes. Answers the parsed JSON, or undefined for a 204.
 */
export function sendBlob<T>(
  method: "POST" | "PUT",
  url: string,
  body: Blob,
  contentType: string,
  options: Omit<UploadOptions, "fields"> = {},
): Promise<T> {
  return send<T>(method, url, body, contentType, options);
}

function send<T>(method: string, url: string, body: XMLHttpRequestBodyInit, contentType: string | undefined, options: UploadOptions): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (options.signal?.aborted) return reject(aborted());
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    xhr.responseType = "text";
    if (contentType) xhr.setRequestHeader("content-type", contentType);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) options.onProgress?.(event.loaded / event.total);
    };
    xhr.onload = () => {
      let parsed: unknown;
      try {
        parsed = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        parsed = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(parsed as T);
      else reject(toApiError(xhr.status, parsed));
    };
    xhr.onerror = () => reject(new ApiError(0, "network", "The upload was interrupted. Check your connection and try again."));
    xhr.onabort = () => reject(aborted());
    options.signal?.addEventListener("abort", () => xhr.abort(), { once: true });
    xhr.send(body);
  });
}

const aborted = () => new ApiError(0, "aborted", "The upload was cancelled.");
