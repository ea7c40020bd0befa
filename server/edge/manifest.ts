// A deployment's files as the edge sees them: every header that does not depend on the request
// is worked out here, once per deployment, not once per request.
import type { DeploymentFile } from "../db/repositories/deployments";
import type { VariantRow } from "../db/repositories/variants";
import { EMPTY_CONFIG, type SiteConfig } from "../siteConfig/siteConfig";
import { chooseRoot, type Manifest, type ManifestFile, type Variant } from "../sites/siteManifest";
import { stringBytes } from "./memory/budget";
import { MANIFEST_BYTES, MANIFEST_FILE_BYTES } from "./memory/sizes";

export type { Variant, ManifestFile, RootKind, Manifest } from "../sites/siteManifest";
export { chooseRoot } from "../sites/siteManifest";

/** Parsed rules hold several objects (and, once used, a compiled pattern) per character of JSON. */
const CONFIG_BYTES_PER_JSON_CHAR = 8;

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
