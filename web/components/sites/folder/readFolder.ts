// A dropped or chosen folder, as the files it would publish: each with its path inside the site,
// the dot-names left out exactly as the berth CLI leaves them out (isLeftOut), and the obvious
// refusals made here, before a file is read: no files, more than a deploy may hold, a name the
// site cannot have, a file over the plan's largest. The server checks all of it again.
//
// Two sources: a drop hands over FileSystemEntry objects (DataTransferItem.webkitGetAsEntry),
// walked here folder by folder; the picker (<input webkitdirectory>) hands over every file at
// once, each with its path under the chosen folder (webkitRelativePath). Only a drop sees the
// folders that hold nothing: the picker lists files alone.
import { DEPLOY_MAX_FILES, DEPLOY_MAX_FOLDERS, DEPLOY_TEXT } from "../../../../common/deploys";
import { isEmptyFolder, isLeftOut } from "../../../../common/folderDeploy";
import { FOLDER_TEXT, validateSitePath } from "../../../../common/uploads";
import { checkFolderFile } from "../uploadCheck";

export interface FolderFile {
  /** The path inside the site, "/"-separated and in NFC: "docs/css/site.css". */
  path: string;
  file: File;
}

export interface PickedFolder {
  /** What to call it: the folder's name, or null when several things were dropped at once. */
  name: string | null;
  /** Sorted by path. */
  files: FolderFile[];
  /**
   * The folders that hold nothing once dot-names are left out, sorted by path: a manifest lists
   * files only, so the deploy carries them beside it and they appear in the Files tab.
   */
  folders: string[];
  /** Bytes of all the files. */
  size: number;
  /** The paths left out by the dot rule, one per name (a .git folder is one, whatever it holds). */
  leftOut: string[];
}

export type FolderSource = { kind: "entries"; entries: readonly EntryLike[] } | { kind: "picker"; files: readonly File[] };

export interface ReadOptions {
  /** The site's folder the files land in ("docs/api"), or null for the top. */
  into: string | null;
  /**
   * true: a dropped folder lands as a folder of that name (the Files tab, like any file
   * manager). false: one dropped folder's contents are the site (the wizard: drop the folder
   * that holds index.html).
   */
  keepFolderName: boolean;
  /** The plan's largest file; null: it sets none. */
  maxFileBytes: number | null;
}

/** A refusal before anything is read or sent, as the toast says it. */
export class FolderProblem extends Error {
  constructor(
    readonly title: string,
    readonly description: string,
  ) {
    super(description);
  }
}

// The parts of the File and Directories API the walk uses (FileSystemEntry and its kinds), so
// tests can hand it plain objects.
export interface EntryLike {
  readonly name: string;
  readonly isFile: boolean;
  readonly isDirectory: boolean;
}
export interface FileEntryLike extends EntryLike {
  file(success: (file: File) => void, failure?: (error: DOMException) => void): void;
}
export interface DirectoryEntryLike extends EntryLike {
  createReader(): { readEntries(success: (entries: EntryLike[]) => void, failure?: (error: DOMException) => void): void };
}

const isDirectory = (entry: EntryLike): entry is DirectoryEntryLike => entry.isDirectory;
const isFile = (entry: EntryLike): entry is FileEntryLike => entry.isFile;

/** Files whose File objects are asked for at once within one folder. */
const FILE_CONCURRENCY = 32;

export async function readFolder(source: FolderSource, options: ReadOptions): Promise<PickedFolder> {
  const found = new Collector(options);
  const base = options.into ? options.into.split("/") : [];
  let name: string | null;
  if (source.kind === "picker") {
    name = readPicked(source.files, base, options.keepFolderName, found);
  } else {
    const roots = source.entries;
    name = roots.length === 1 ? roots[0]!.name : null;
    const root = roots[0];
    if (!options.keepFolderName && roots.length === 1 && root && isDirectory(root)) await walkDirectory(root, base, found);
    else await visitAll(roots, base, found);
  }
  return found.result(name);
}

/** The picker's files: paths under the chosen folder, whose own name is the first segment. */
function readPicked(files: readonly File[], base: string[], keepFolderName: boolean, found: Collector): string | null {
  let name: string | null = null;
  for (const file of files) {
    const segments = (file.webkitRelativePath || file.name).split("/");
    name ??= segments.length > 1 ? segments[0]! : null;
    const inSite = [...base, ...(keepFolderName || segments.length === 1 ? segments : segments.slice(1))];
    // Left out when any name on the way is: a file inside .git goes with .git, counted once.
    const at = inSite.findIndex((segment, index) => index >= base.length && isLeftOut(segment, index === 0));
    if (at !== -1) found.leaveOut(inSite.slice(0, at + 1).join("/"));
    else found.add(inSite.join("/"), file);
  }
  return name;
}

async function visitAll(entries: readonly EntryLike[], parent: string[], found: Collector): Promise<void> {
  const files: { path: string; entry: FileEntryLike }[] = [];
  const folders: { path: string[]; entry: DirectoryEntryLike }[] = [];
  for (const entry of entries) {
    const path = [...parent, entry.name];
    if (isLeftOut(entry.name, parent.length === 0)) found.leaveOut(path.join("/"));
    else if (isDirectory(entry)) folders.push({ path, entry });
    else if (isFile(entry)) files.push({ path: path.join("/"), entry });
  }
  for (let start = 0; start < files.length; start += FILE_CONCURRENCY) {
    const chunk = files.slice(start, start + FILE_CONCURRENCY);
    const read = await Promise.all(chunk.map(({ entry }) => fileOf(entry)));
    read.forEach((file, index) => found.add(chunk[index]!.path, file));
  }
  for (const folder of folders) await walkDirectory(folder.entry, folder.path, found);
}

async function walkDirectory(directory: DirectoryEntryLike, path: string[], found: Collector): Promise<void> {
  const entries = await entriesOf(directory);
  // The wizard's dropped folder is the site itself (no path): nothing to keep there.
  if (path.length > 0 && isEmptyFolder(entries.map((e) => e.name))) found.addFolder(path.join("/"));
  await visitAll(entries, path, found);
}

/**
 * Everything in a folder. readEntries answers in batches (Chromium: at most 100 entries a call)
 * and says it is done with an empty one, so it is called until then on the same reader.
 */
export async function entriesOf(directory: DirectoryEntryLike): Promise<EntryLike[]> {
  const reader = directory.createReader();
  const all: EntryLike[] = [];
  for (;;) {
    const batch = await new Promise<EntryLike[]>((resolve, reject) => reader.readEntries(resolve, reject)).catch(() => {
      throw new FolderProblem(FOLDER_TEXT.unreadableTitle, FOLDER_TEXT.unreadableDescription(directory.name));
    });
    if (batch.length === 0) return all;
    all.push(...batch);
  }
}

function fileOf(entry: FileEntryLike): Promise<File> {
  return new Promise<File>((resolve, reject) => entry.file(resolve, reject)).catch(() => {
    throw new FolderProblem(FOLDER_TEXT.unreadableTitle, FOLDER_TEXT.unreadableDescription(entry.name));
  });
}

/** Gathers the files, refusing at the first that cannot go, and stops a walk once there are too many. */
class Collector {
  private readonly files: FolderFile[] = [];
  private readonly paths = new Set<string>();
  private readonly leftOut = new Set<string>();
  private readonly folders = new Set<string>();
  private size = 0;

  constructor(private readonly options: ReadOptions) {}

  add(rawPath: string, file: File): void {
    // Stops reading a folder with far too many files (a node_modules inside, say) at once.
    if (this.files.length >= DEPLOY_MAX_FILES) throw new FolderProblem(FOLDER_TEXT.tooManyTitle, FOLDER_TEXT.tooManyDescription(DEPLOY_MAX_FILES));
    const checked = validateSitePath(rawPath);
    if (!checked.ok) throw new FolderProblem(FOLDER_TEXT.badNameTitle, DEPLOY_TEXT.invalidPath(rawPath, checked.error));
    // Two spellings of one name (composed and decomposed accents) are one path on the site.
    if (this.paths.has(checked.path)) throw new FolderProblem(FOLDER_TEXT.badNameTitle, DEPLOY_TEXT.duplicatePath(checked.path));
    const problem = checkFolderFile(checked.path, file.size, this.options.maxFileBytes);
    if (problem) throw new FolderProblem(problem.title, problem.description);
    this.paths.add(checked.path);
    this.files.push({ path: checked.path, file });
    this.size += file.size;
  }

  addFolder(rawPath: string): void {
    if (this.folders.size >= DEPLOY_MAX_FOLDERS) throw new FolderProblem(FOLDER_TEXT.tooManyTitle, DEPLOY_TEXT.tooManyFolders);
    const checked = validateSitePath(rawPath);
    if (!checked.ok) throw new FolderProblem(FOLDER_TEXT.badNameTitle, DEPLOY_TEXT.invalidPath(rawPath, checked.error));
    this.folders.add(checked.path);
  }

  leaveOut(path: string): void {
    this.leftOut.add(path);
  }

  result(name: string | null): PickedFolder {
    if (this.files.length === 0) throw new FolderProblem(FOLDER_TEXT.emptyTitle, FOLDER_TEXT.emptyDescription);
    const files = this.files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const folders = [...this.folders].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return { name, files, folders, size: this.size, leftOut: [...this.leftOut].sort() };
  }
}
