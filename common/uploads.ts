// What may be uploaded (types, the texts that refuse a file) and the path rules of a site's files,
// shared by the dashboard (checks before sending) and the server (the checks that count).

import { formatCount } from "./format";
const MB = 1024 * 1024;

/**
 * The built-in Free plan's file limit (server/plans/builtIn.ts): the texts' default, and what the
 * dashboard checks against in the moment before it knows the user's plan. The limit that applies
 * is the plan's, which the server enforces and GET /api/stats reports.
 */
export const MAX_UPLOAD_BYTES = 50 * MB;

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
  storageFullTitle: "The server is out of storage space",
  storageFullDescription: "Nothing was changed. Try again later, or tell the server's operator.",
  succeeded: "File uploaded successfully",
} as const;

const plural = (count: number, one: string, many: string) => `${formatCount(count)} ${count === 1 ? one : many}`;

/**
 * A dropped or chosen folder, in the wizard and the Files tab: what the zone offers, what it says
 * while the folder is read, checked and sent, and the refusals made before a byte leaves the
 * browser (the server's own, such as the plan's storage, arrive in its words).
 */
export const FOLDER_TEXT = {
  chooseFolder: "Choose a folder",
  fileOrFolder: "Upload a file or a folder",
  kindTitle: "Folder",
  kindBody: "Published as it is, subfolders and all; its index.html is the home page.",
  severalItems: "Dropped files and folders",
  /** The deployment's note, as an upload's is "Uploaded index.html". */
  note: (name: string | null, files: number) => (name ? `Uploaded folder ${name}` : `Uploaded ${plural(files, "file", "files")}`),
  folderPrompt: "A whole folder? Drop it above, or",
  reading: "Reading the folder…",
  explanation: "Every file is published where it sits in the folder, subfolders and all, and index.html at the top is the home page.",
  explanationInto: "It goes with its subfolders and all. The site's other files stay as they are; a file at the same path is replaced.",
  summary: (files: number, size: string) => `${plural(files, "file", "files")} · ${size}`,
  leftOut: (count: number) => `${plural(count, "hidden item", "hidden items")} left out (names starting with a dot)`,
  hashing: "Checking files…",
  uploading: "Uploading…",
  publishing: "Publishing…",
  /** "120 of 200 files · 1.2 MB of 3.4 MB", in its two halves, which a narrow screen puts on two lines. */
  progressFiles: (files: number, totalFiles: number) => `${formatCount(files)} of ${plural(totalFiles, "file", "files")}`,
  progressBytes: (bytes: string, totalBytes: string) => `${bytes} of ${totalBytes}`,
  unchanged: (count: number) => `${plural(count, "file", "files")} already stored, not sent again`,
  nothingToSend: "Every file is already stored: nothing to send",
  publishingNote: "Saving your files and making them live",
  succeeded: "Folder published",
  succeededDescription: (files: number, version: number) => `${plural(files, "file", "files")} published as version ${version}.`,
  liveUnchanged: "Your live site is unchanged.",
  cancelled: "Upload cancelled",
  createdNotPublished: (name: string) => `${name} was created, but the folder was not published`,
  publishAgainHint: "Nothing is live yet. Fix what the message says, then press Create Site again: the folder goes to this same site.",
  emptyTitle: "Nothing to publish",
  emptyDescription: "The folder holds no files to publish. Files and folders whose names start with a dot are left out.",
  tooManyTitle: "Too many files",
  tooManyDescription: (max: number) =>
    `A site can hold at most ${formatCount(max)} files. Leave out what the site does not need (node_modules, say) and try again.`,
  badNameTitle: "A name cannot be published",
  unreadableTitle: "A file could not be read",
  unreadableDescription: (path: string) => `${path} could not be read. It may have been moved or changed; choose the folder again.`,
  changedDescription: "A file changed while it was being sent. Choose the folder again to publish its current version.",
  insecureTitle: "Folders need a secure connection",
  insecureDescription:
    "The browser works out each file's digest only on HTTPS or localhost. Open the dashboard over HTTPS, or upload a zip of the folder instead.",
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
