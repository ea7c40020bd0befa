// How an unpacked archive (a zip, a .tar.gz) becomes a site's files: the same for every archive
// format, so a folder zipped on one system and tarred on another deploys the same way.
import { zipError } from "./errors";

export interface ExtractedFile {
  path: string;
  sha256: string;
  size: number;
  /** True when this extraction stored the blob (it did not exist before). */
  created: boolean;
}

export interface ExtractedArchive {
  files: ExtractedFile[];
  /** Every folder, explicit in the archive or implied by a file's path, sorted; empty ones too. */
  folders: string[];
}

/**
 * Strips a single top-level folder when every file sits under it ("my-site/index.html" →
 * "index.html"), and lists every folder. Refuses a path that is both a file and a folder.
 */
export function arrange(files: ExtractedFile[], explicitFolders: Set<string>): ExtractedArchive {
  if (files.length === 0) throw zipError.empty();
  const top = singleTopFolder(files, explicitFolders);
  const strip = (path: string) => (top === undefined ? path : path.slice(top.length + 1));
  const stripped = files.map((file) => ({ ...file, path: strip(file.path) }));
  const folders = new Set<string>();
  for (const folder of explicitFolders) if (folder !== top) addWithAncestors(folders, strip(folder));
  for (const file of stripped) {
    const slash = file.path.lastIndexOf("/");
    if (slash > 0) addWithAncestors(folders, file.path.slice(0, slash));
  }
  for (const file of stripped) if (folders.has(file.path)) throw zipError.fileAndFolder(file.path);
  return { files: stripped, folders: [...folders].sort() };
}

function singleTopFolder(files: ExtractedFile[], folders: Set<string>): string | undefined {
  const firstSlash = files[0]!.path.indexOf("/");
  if (firstSlash < 0) return undefined;
  const top = files[0]!.path.slice(0, firstSlash);
  const under = (path: string) => path.startsWith(top + "/");
  if (!files.every((file) => under(file.path))) return undefined;
  if (![...folders].every((folder) => folder === top || under(folder))) return undefined;
  return top;
}

function addWithAncestors(folders: Set<string>, folder: string): void {
  for (let end = folder.length; end > 0; end = folder.lastIndexOf("/", end - 1)) {
    folders.add(folder.slice(0, end));
  }
}
