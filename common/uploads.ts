// What may be uploaded (types, the texts that refuse a file) and the path rules of a site's files,
// shared by the dashboard (checks before sending) and the server (the checks that count).
import { PLANS } from "./plans";

const MB = 1024 * 1024;

/**
 * The free plan's file limit, which every account starts on: what the dashboard checks against
 * until it knows the user's plan, and the texts' default. The limit that applies is the plan's
 * (common/plans.ts).
 */
export const MAX_UPLOAD_BYTES = PLANS.free.maxFileBytes;

export const ALLOWED_EXTENSIONS = ["html", "htm", "css", "js", "jpg", "jpeg", "png", "gif", "pdf", "zip"] as const;

export type AllowedExtension = (typeof ALLOWED_EXTENSIONS)[number];

/**
 * The MIME types browsers report for the allowed extensions, aliases included: Windows reports
 * zips as application/x-zip-compressed and older systems JavaScript as application/x-javascript.
 */
export const ALLOWED_MIME_TYPES: Readonly<Record<AllowedExtension, readonly string[]>> = {
  html: ["text/html"],
  htm: ["text/html"],
  css: ["text/css"],
  js: ["text/javascript", "application/javascript", "application/x-javascript"],
  jpg: ["image/jpeg"],
  jpeg: ["image/jpeg"],
  png: ["image/png"],
  gif: ["image/gif"],
  pdf: ["application/pdf"],
  zip: ["application/zip", "application/x-zip-compressed", "application/x-zip"],
};

const allowedMimeTypes = new Set(Object.values(ALLOWED_MIME_TYPES).flat());

/** The lowercase extension of the last name in `name`, without the dot; "" when there is none. */
export function extensionOf(name: string): string {
  const base = name.slice(name.lastIndexOf("/") + 1);
  const dot = base.lastIndexOf(".");
  return dot <= 0 ? "" : base.slice(dot + 1).toLowerCase();
}

/** A site's configuration files (redirect and header rules); accepted beside the allowed types. */
export const SITE_CONFIG_FILES = ["_redirects", "_headers"] as const;

/**
 * Allowed when the extension or the MIME type matches, either one being enough: browsers report
 * no type (or a generic one) for many files, and a download saved without an extension still
 * carries its type.
 */
export function isAllowedUpload(name: string, mimeType: string | null | undefined): boolean {
  if ((SITE_CONFIG_FILES as readonly string[]).includes(name)) return true;
  if ((ALLOWED_EXTENSIONS as readonly string[]).includes(extensionOf(name))) return true;
  const essence = (mimeType ?? "").split(";")[0]!.trim().toLowerCase();
  return allowedMimeTypes.has(essence);
}

/** Whether an upload is an archive to unpack into the site rather than a file to store as is. */
export function isZipUpload(name: string, mimeType: string | null | undefined): boolean {
  if (extensionOf(name) === "zip") return true;
  const essence = (mimeType ?? "").split(";")[0]!.trim().toLowerCase();
  return ALLOWED_MIME_TYPES.zip.includes(essence);
}

export function formatUploadLimit(maxBytes: number): string {
  return `${+(maxBytes / MB).toFixed(2)}MB`;
}

/** The product's exact wording; the size in the description follows the limit applied. */
export const UPLOAD_TEXT = {
  unsupportedTitle: "Unsupported file type",
  unsupportedDescription: `Please upload one of the following types: ${ALLOWED_EXTENSIONS.map((ext) => `.${ext}`).join(", ")}`,
  tooLargeTitle: "File too large",
  tooLargeDescription: (maxBytes: number = MAX_UPLOAD_BYTES) => `Maximum file size is ${formatUploadLimit(maxBytes)}`,
  failed: "Upload failed",
  succeeded: "File uploaded successfully",
} as const;

const UTF8 = "; charset=utf-8";

// The edge sends these with `X-Content-Type-Options: nosniff`, so a wrong type breaks a page:
// scripts must be a JavaScript type and styles text/css or the browser refuses them.
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  html: "text/html" + UTF8,
  htm: "text/html" + UTF8,
  css: "text/css" + UTF8,
  js: "text/javascript" + UTF8,
  mjs: "text/javascript" + UTF8,
  json: "application/json" + UTF8,
  map: "application/json" + UTF8,
  txt: "text/plain" + UTF8,
  md: "text/markdown" + UTF8,
  csv: "text/csv" + UTF8,
  xml: "application/xml" + UTF8,
  svg: "image/svg+xml" + UTF8,
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
  ico: "image/x-icon",
  pdf: "application/pdf",
  wasm: "application/wasm",
  woff: "font/woff",
  woff2: "font/woff2",
  ttf: "font/ttf",
  otf: "font/otf",
  mp4: "video/mp4",
  webm: "video/webm",
  mp3: "audio/mpeg",
  zip: "application/zip",
};

/** The Content-Type to serve a site file with; unknown extensions are opaque bytes. */
export function contentTypeFor(path: string): string {
  return CONTENT_TYPES[extensionOf(path)] ?? "application/octet-stream";
}

export const SITE_PATH_LIMITS = { segmentBytes: 255, pathBytes: 1024 } as const;

export type SitePathResult = { ok: true; path: string } | { ok: false; error: string };

// C0 controls, DEL and C1 controls: invisible, and NUL truncates names in C-based tools.
// Lone surrogates cannot be encoded as UTF-8, so such a name could not round-trip.
// eslint-disable-next-line no-control-regex
const FORBIDDEN_CHARACTER = /[\u0000-\u001f\u007f-\u009f]|\p{Cs}/u;
const DRIVE_LETTER = /^[a-zA-Z]:/;
const encoder = new TextEncoder();

/**
 * Checks a file or folder path inside a site: "css/site.css", never "/x", "../x", "a//b" or
 * "C:\x". Returns the NFC form, so that "é" typed on macOS (decomposed) and on Windows
 * (composed) is one name. Percent signs are literal characters here: "%2e%2e" and "%00" are
 * ordinary names, because nothing decodes stored names; the edge decodes a request URL exactly
 * once and compares it with them.
 */
export function validateSitePath(input: string): SitePathResult {
  const fail = (error: string): SitePathResult => ({ ok: false, error });
  // Every check runs on the normalized form, the one that is stored and compared.
  const path = input.normalize("NFC");
  if (path === "") return fail("The path is empty");
  if (FORBIDDEN_CHARACTER.test(path)) return fail("The path contains a control character");
  if (path.includes("\\")) return fail("The path contains a backslash");
  if (path.startsWith("/")) return fail("The path must be relative, not start with /");
  if (DRIVE_LETTER.test(path)) return fail("The path starts with a drive letter");
  const segments = path.split("/");
  for (const segment of segments) {
    if (segment === "") return fail("The path contains an empty name (// or a trailing /)");
    if (segment === "." || segment === "..") return fail('The path contains "." or ".."');
    if (segment.trim() === "") return fail("The path contains a name made only of spaces");
    if (encoder.encode(segment).length > SITE_PATH_LIMITS.segmentBytes) {
      return fail(`A name in the path is longer than ${SITE_PATH_LIMITS.segmentBytes} bytes`);
    }
  }
  if (encoder.encode(path).length > SITE_PATH_LIMITS.pathBytes) {
    return fail(`The path is longer than ${SITE_PATH_LIMITS.pathBytes} bytes`);
  }
  return { ok: true, path };
}
