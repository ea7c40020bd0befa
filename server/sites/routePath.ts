// Which response a path gets in a deployment, in the order static hosts have made familiar:
// forced redirects, then the file itself (with clean URLs), then the remaining redirect rules,
// then a 200.html SPA fallback, then the site's own 404.html, then Berth's 404 page.
import type { Manifest, ManifestFile } from "./siteManifest";
import { matchRedirect, type RedirectRule } from "../siteConfig/redirects";
import { hrefFor, parseRequestPath } from "./requestPath";

export type Route =
  | { kind: "file"; file: ManifestFile; status: 200 | 404 }
  | { kind: "root" }
  | { kind: "redirect"; location: string; status: 301 | 302 | 307 | 308 }
  | { kind: "not-found" };

/** Files a site configures Berth with; they are read at publish time and never served. */
export const CONFIG_FILES = new Set(["_redirects", "_headers"]);

function lookup(manifest: Manifest, path: string): ManifestFile | undefined {
  return CONFIG_FILES.has(path) ? undefined : manifest.files.get(path);
}

/** The file a path names, with clean URLs; a redirect when the canonical URL differs. */
function findFile(manifest: Manifest, path: string, directory: boolean): Route | undefined {
  if (path === "") {
    // index.html, or the one page a single-file site consists of; otherwise a generated page.
    const root = manifest.root.kind === "file" ? lookup(manifest, manifest.root.path) : undefined;
    return root ? { kind: "file", file: root, status: 200 } : { kind: "root" };
  }
  if (directory) {
    const index = lookup(manifest, `${path}/index.html`) ?? lookup(manifest, `${path}/index.htm`);
    if (index) return { kind: "file", file: index, status: 200 };
    // "/about/" for about.html: the canonical URL has no slash.
    if (lookup(manifest, `${path}.html`)) return { kind: "redirect", location: hrefFor(path), status: 301 };
    return undefined;
  }
  const exact = lookup(manifest, path);
  if (exact) {
    // "/about.html" → "/about": one URL per page. Index files are served where they are asked
    // for, as every static server does, since links to "/index.html" are everywhere.
    const isIndex = path === "index.html" || path.endsWith("/index.html");
    if (!isIndex && path.endsWith(".html") && !lookup(manifest, path.slice(0, -5)))
      return { kind: "redirect", location: hrefFor(path.slice(0, -5)), status: 301 };
    return { kind: "file", file: exact, status: 200 };
  }
  const page = lookup(manifest, `${path}.html`);
  if (page) return { kind: "file", file: page, status: 200 };
  if (lookup(manifest, `${path}/index.html`) || lookup(manifest, `${path}/index.htm`)) {
    return { kind: "redirect", location: `${hrefFor(path)}/`, status: 301 };
  }
  return undefined;
}

function applyRedirect(manifest: Manifest, rules: readonly RedirectRule[], path: string, fileExists: boolean): Route | undefined {
  const hit = matchRedirect(rules, `/${path}`, { fileExists });
  if (!hit) return undefined;
  if (hit.status === 200 || hit.status === 404) {
    // The parser refuses absolute targets for 200 and 404 (Berth does not proxy): this is a path.
    const target = hit.location.replace(/^\/+/, "").replace(/[?#].*$/, "");
    // One level only: the target is looked up as a file, never run through the rules again.
    const route = findFile(manifest, decodeTarget(target), hit.location.endsWith("/"));
    if (route?.kind === "file") return { ...route, status: hit.status };
    if (route?.kind === "root" && hit.status === 200) return route;
    return undefined;
  }
  return { kind: "redirect", location: hit.location, status: hit.status };
}

/** The rewrite target as a path inside the deployment, checked like a request path. */
function decodeTarget(target: string): string {
  const parsed = parseRequestPath(`/${target}`);
  return parsed.ok ? parsed.path : "\u0000";
}

export interface Routed {
  route: Route;
  /**
   * The path names something of the deployment (a file, with clean URLs, or the root). When it
   * does not, whatever answers (a rule, 200.html, 404.html, Berth's 404) answers any number of
   * other made-up paths too: a miss, which the edge remembers for a few paths only.
   */
  named: boolean;
}

/**
 * The answer for a path, independent of the query string: redirects get the request's query
 * appended by the caller (unless their target has one), so the result can be cached per path.
 */
export function routeRequest(manifest: Manifest, rules: readonly RedirectRule[], path: string, directory: boolean): Routed {
  const found = findFile(manifest, path, directory);
  const named = found !== undefined;
  // With a file at the path only forced rules ("!") apply; without one, any rule does.
  const redirected = rules.length > 0 ? applyRedirect(manifest, rules, path, named) : undefined;
  if (redirected) return { route: redirected, named };
  if (found) return { route: found, named };
  const spa = lookup(manifest, "200.html");
  if (spa) return { route: { kind: "file", file: spa, status: 200 }, named };
  const custom = lookup(manifest, "404.html");
  if (custom) return { route: { kind: "file", file: custom, status: 404 }, named };
  return { route: { kind: "not-found" }, named };
}
