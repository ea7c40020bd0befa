// A deployment's files as the edge sees them: every header that does not depend on the request
// is worked out here, once per deployment, not once per request.
import type { DeploymentFile } from "../db/repositories/deployments";
import type { VariantRow } from "../db/repositories/variants";
import { EMPTY_CONFIG, type SiteConfig } from "../siteConfig/siteConfig";
import { stringBytes } from "./memory/budget";
import { MANIFEST_BYTES, MANIFEST_FILE_BYTES } from "./memory/sizes";

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

/** Parsed rules hold several objects (and, once used, a compiled pattern) per character of JSON. */
const CONFIG_BYTES_PER_JSON_CHAR = 8;

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

export function buildManifest(
  deployment: { id: string; published_at: Date | null; created_at: Date; config: unknown },
  rows: DeploymentFile[],
  variants: VariantRow[],
): Manifest {
  const byBlob = new Map<string, { br?: Variant; gzip?: Variant }>();
  for (const v of variants) {
    if (!v.variant_sha256 || v.size === null) continue;
    const forms = byBlob.get(v.sha256) ?? {};
    forms[v.encoding] = { sha256: v.variant_sha256, size: v.size };
    byBlob.set(v.sha256, forms);
  }
  const files = new Map<string, ManifestFile>();
  let bytes = MANIFEST_BYTES;
  for (const row of rows) {
    bytes += MANIFEST_FILE_BYTES + stringBytes(row.path) + stringBytes(row.content_type);
    files.set(row.path, {
      path: row.path,
      sha256: row.sha256,
      size: row.size,
      contentType: row.content_type,
      etag: `"${row.sha256}"`,
      ...byBlob.get(row.sha256),
    });
  }
  const config = (deployment.config as SiteConfig | null) ?? EMPTY_CONFIG;
  if (config !== EMPTY_CONFIG) bytes += JSON.stringify(config).length * CONFIG_BYTES_PER_JSON_CHAR;
  return {
    deploymentId: deployment.id,
    files,
    root: chooseRoot([...files.keys()]),
    publishedAt: deployment.published_at ?? deployment.created_at,
    config,
    bytes,
  };
}
