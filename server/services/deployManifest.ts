// A deploy's manifest as the server keeps it: every path checked and normalised (NFC) by the
// same rules as any upload, no path twice, no path both a file and a folder, one size per
// digest, sorted by path so that the same folder always gives the same manifest and hash.
import { createHash } from "node:crypto";
import { DEPLOY_TEXT, type ManifestEntry } from "../../common/deploys";
import { contentTypeFor, validateSitePath } from "../../common/uploads";
import type { StoredManifestEntry } from "../db/repositories/deploys";
import { AppError } from "../errors";
import { displayName } from "../uploads/errors";

export function normaliseManifest(files: readonly ManifestEntry[]): StoredManifestEntry[] {
  const byPath = new Map<string, StoredManifestEntry>();
  const sizes = new Map<string, number>();
  for (const file of files) {
    const checked = validateSitePath(file.path);
    if (!checked.ok) throw new AppError("invalid_path", 400, DEPLOY_TEXT.invalidPath(displayName(file.path), checked.error));
    const path = checked.path;
    if (byPath.has(path)) throw new AppError("duplicate_path", 400, DEPLOY_TEXT.duplicatePath(displayName(path)));
    const size = sizes.get(file.sha256);
    if (size !== undefined && size !== file.size) throw new AppError("invalid_manifest", 400, DEPLOY_TEXT.sizeConflict(file.sha256));
    sizes.set(file.sha256, file.size);
    byPath.set(path, { path, sha256: file.sha256, size: file.size, content_type: contentTypeFor(path) });
  }
  for (const path of byPath.keys()) {
    for (let slash = path.indexOf("/"); slash !== -1; slash = path.indexOf("/", slash + 1)) {
      const folder = path.slice(0, slash);
      if (byPath.has(folder)) throw new AppError("path_conflict", 400, DEPLOY_TEXT.fileAndFolder(displayName(folder)));
    }
  }
  // Code-unit order, the same on every machine (no locale).
  return [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * The empty folders a deploy brings, checked by the same path rules as its files, normalised and
 * sorted, once each. A folder where the manifest has a file, or inside one, is a conflict; one
 * that already holds a file is dropped, as the file's path makes it anyway.
 */
export function normaliseFolders(folders: readonly string[], manifest: readonly StoredManifestEntry[]): string[] {
  const files = new Set(manifest.map((f) => f.path));
  const holding = new Set<string>();
  for (const path of files) for (const folder of ancestorsOf(path)) holding.add(folder);
  const kept = new Set<string>();
  for (const folder of folders) {
    const checked = validateSitePath(folder);
    if (!checked.ok) throw new AppError("invalid_path", 400, DEPLOY_TEXT.invalidPath(displayName(folder), checked.error));
    const path = checked.path;
    for (const at of [...ancestorsOf(path), path])
      if (files.has(at)) throw new AppError("path_conflict", 400, DEPLOY_TEXT.fileAndFolder(displayName(at)));
    if (!holding.has(path)) kept.add(path);
  }
  return [...kept].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** "a/b/c" → "a", "a/b". */
function ancestorsOf(path: string): string[] {
  const found: string[] = [];
  for (let slash = path.indexOf("/"); slash !== -1; slash = path.indexOf("/", slash + 1)) found.push(path.slice(0, slash));
  return found;
}

/** What makes a rerun the same deploy: the normalised manifest and folders, the message and the draft flag. */
export function manifestHash(
  entries: readonly StoredManifestEntry[],
  message: string | null,
  draft: boolean,
  folders: readonly string[] = [],
): string {
  // Without folders the form is the one from before they existed, so an open deploy resumes across an upgrade.
  const canonical = JSON.stringify({
    files: entries.map((e) => [e.path, e.sha256, e.size]),
    message,
    draft,
    ...(folders.length > 0 ? { folders } : {}),
  });
  return createHash("sha256").update(canonical).digest("hex");
}
