// What a reference written in a page or stylesheet means for a deployment: ignored (another site,
// an e-mail address, an anchor), a problem on its face (a path on the author's computer, an
// http:// resource), or a path that the edge resolves exactly as it would for a visitor
// (route.ts: clean URLs, index files, _redirects, 200.html and 404.html).
import type { Manifest } from "../sites/siteManifest";
import { hrefFor, parseRequestPath } from "../sites/requestPath";
import { routeRequest } from "../sites/routePath";
import type { RedirectRule } from "../siteConfig/redirects";
import type { RefUse } from "./scanHtml";

export type Classified =
  | { kind: "skip" }
  | { kind: "local" }
  | { kind: "insecure" }
  /** A path of the site, already resolved against the referring file. */
  | { kind: "path"; path: string; directory: boolean };

// Anchored, linear patterns only: they run on text from uploads.
const SCHEME = /^([a-z][a-z0-9+.-]*):/i;
const WINDOWS_PATH = /^[a-z]:[\\/]/i;
const LOCAL_HOST = /^(?:https?:)?\/\/(?:localhost|127(?:\.\d{1,3}){3}|0\.0\.0\.0|\[::1\])(?:[:/?#\\]|$)/i;
const TEMPLATE = /\{\{|\{%|<%|\$\{/;
const ORIGIN = "https://berth.invalid";
const HTML_FILE = /\.html?$/i;

/** The URL a file's relative references resolve against: its own address in the site. */
export function fileBase(path: string): string {
  return ORIGIN + hrefFor(path);
}

/**
 * Resolves `base` (a `<base href>`) against the file's own address; null when it points at
 * another site, where relative references are not this deployment's business.
 */
export function resolveBase(fileUrl: string, base: string): string | null {
  try {
    const url = new URL(base.trim(), fileUrl);
    return url.origin === ORIGIN ? url.href : null;
  } catch {
    return fileUrl;
  }
}

export function classifyRef(raw: string, use: RefUse, baseUrl: string | null): Classified {
  const value = raw.trim();
  if (value === "" || value.startsWith("#") || value.startsWith("?") || TEMPLATE.test(value)) return { kind: "skip" };
  if (WINDOWS_PATH.test(value) || value.startsWith("\\\\")) return { kind: "local" };
  if (LOCAL_HOST.test(value)) return { kind: "local" };
  const scheme = SCHEME.exec(value)?.[1]?.toLowerCase();
  if (scheme === "file") return { kind: "local" };
  if (scheme === "http" && use === "resource") return { kind: "insecure" };
  if (scheme !== undefined || value.startsWith("//") || baseUrl === null) return { kind: "skip" };
  let url: URL;
  try {
    url = new URL(value, baseUrl);
  } catch {
    return { kind: "skip" };
  }
  // "\\evil.example/x" and the like: a browser leaves the site too.
  if (url.origin !== ORIGIN) return { kind: "skip" };
  const parsed = parseRequestPath(url.pathname);
  if (!parsed.ok) return { kind: "skip" };
  return { kind: "path", path: parsed.path, directory: parsed.directory };
}

export type PathOutcome = { ok: true; file: string | null } | { ok: false };

/**
 * Whether the edge answers the path with something that works for this use. A link is fine with
 * any page (a rule, 200.html); a resource is not fine with an HTML page it did not ask for (a
 * single-page app's fallback answers a missing script with its index page) nor with a 404.
 * `file` is the path of the file that answers, when one does.
 */
export function resolvePath(manifest: Manifest, rules: readonly RedirectRule[], path: string, directory: boolean, use: RefUse): PathOutcome {
  const { route, named } = routeRequest(manifest, rules, path, directory);
  if (route.kind === "redirect" || route.kind === "root") return { ok: true, file: null };
  if (route.kind === "not-found" || route.status === 404) return { ok: false };
  if (use === "resource" && !named && HTML_FILE.test(route.file.path) && !HTML_FILE.test(path)) return { ok: false };
  return { ok: true, file: named ? route.file.path : null };
}

/** The paths a missing reference may have meant, in the reference's own spelling: itself, its clean-URL forms. */
export function intendedPaths(path: string, directory: boolean): string[] {
  if (path === "") return [];
  return directory ? [`${path}/index.html`, `${path}/index.htm`] : [path, `${path}.html`, `${path}/index.html`, `${path}/index.htm`];
}
