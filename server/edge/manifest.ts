// A deployment's files as the edge sees them, and what "/" shows when there is no index.html.
import type { DeploymentFile } from "../db/repositories/deployments";

export interface ManifestFile {
  path: string;
  sha256: string;
  size: number;
  contentType: string;
}

/** What the root of a site serves: a file, or a page Berth generates. */
export type RootKind =
  | { kind: "file"; path: string }
  | { kind: "pdf"; path: string }
  | { kind: "image"; path: string }
  | { kind: "listing" };

export interface Manifest {
  deploymentId: string;
  files: Map<string, ManifestFile>;
  root: RootKind;
}

const IMAGE = /\.(png|jpe?g|gif|svg|webp|avif)$/i;

export function chooseRoot(paths: string[]): RootKind {
  if (paths.includes("index.html")) return { kind: "file", path: "index.html" };
  if (paths.includes("index.htm")) return { kind: "file", path: "index.htm" };
  const atRoot = paths.filter((p) => !p.includes("/"));
  // One page on its own (resume.html) is the site; one PDF or image gets a page that shows it.
  if (paths.length === 1 && atRoot.length === 1) {
    const only = atRoot[0]!;
    if (/\.html?$/i.test(only)) return { kind: "file", path: only };
    if (/\.pdf$/i.test(only)) return { kind: "pdf", path: only };
    if (IMAGE.test(only)) return { kind: "image", path: only };
  }
  return { kind: "listing" };
}

export function buildManifest(deploymentId: string, rows: DeploymentFile[]): Manifest {
  const files = new Map<string, ManifestFile>();
  for (const row of rows) files.set(row.path, { path: row.path, sha256: row.sha256, size: row.size, contentType: row.content_type });
  return { deploymentId, files, root: chooseRoot([...files.keys()]) };
}
