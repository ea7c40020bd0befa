// A deployment's files as paths are resolved against them: the edge's manifest (server/edge/
// manifest.ts adds what serving needs) and the publish check use the same shapes and the same
// choice of what the root serves.
import type { SiteConfig } from "../siteConfig/siteConfig";

export interface Variant {
  sha256: string;
  size: number;
}

export interface ManifestFile {
  path: string;
  sha256: string;
  size: number;
  contentType: string;
  etag: string;
  br?: Variant;
  gzip?: Variant;
}

/** What the root of a site serves: a file, or a page Berth generates. */
export type RootKind = { kind: "file"; path: string } | { kind: "pdf"; path: string } | { kind: "image"; path: string } | { kind: "listing" };

export interface Manifest {
  deploymentId: string;
  files: Map<string, ManifestFile>;
  root: RootKind;
  publishedAt: Date;
  config: SiteConfig;
  /** Its estimated size in memory, worked out once (the edge's budget counts it). */
  bytes: number;
}

const IMAGE = /\.(png|jpe?g|gif|svg|webp|avif)$/i;

export function chooseRoot(paths: string[]): RootKind {
  if (paths.includes("index.html")) return { kind: "file", path: "index.html" };
  if (paths.includes("index.htm")) return { kind: "file", path: "index.htm" };
  // One file on its own is the site: a page is served as it is; a PDF or an image gets a page
  // that shows it.
  if (paths.length === 1 && !paths[0]!.includes("/")) {
    const only = paths[0]!;
    if (/\.html?$/i.test(only)) return { kind: "file", path: only };
    if (/\.pdf$/i.test(only)) return { kind: "pdf", path: only };
    if (IMAGE.test(only)) return { kind: "image", path: only };
  }
  return { kind: "listing" };
}
