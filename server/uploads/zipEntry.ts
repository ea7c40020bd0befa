// What one central-directory entry is, judged from its own fields before any of its bytes are
// read: its decoded name, whether it is a file, a folder or something we refuse, and whether it
// is junk that archivers add behind the user's back.
import yauzl, { type Entry } from "yauzl";
import { validateSitePath } from "../../common/uploads";
import { zipError } from "./errors";

export type EntryKind = "file" | "directory" | "symlink" | "special";

// Unix file-type bits of st_mode, which Unix archivers keep in the high 16 bits of the external
// attributes. They are read whatever the "made by" host says: p7zip writes them with host 0
// (MS-DOS), marking them with bit 0x8000, so a host check would let its symlinks through.
const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;
const MSDOS_DIRECTORY = 0x10;

/** The entry's name as the archive means it: UTF-8 when flagged, else CP437; backslashes kept. */
export function entryName(entry: Entry): string {
  // strictFileNames = true: a backslash stays a backslash, so "..\\x" is refused rather than
  // silently becoming "../x" or "a\\b" becoming a folder.
  return yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, true);
}

export function entryKind(entry: Entry, name: string): EntryKind {
  const type = (entry.externalFileAttributes >>> 16) & S_IFMT;
  if (type === S_IFLNK) return "symlink";
  if (type === S_IFDIR) return "directory";
  if (type !== 0 && type !== S_IFREG) return "special";
  if (name.endsWith("/")) return "directory";
  // Windows archivers mark folders only with the MS-DOS attribute; Unix ones set it too.
  if (type === 0 && (entry.externalFileAttributes & MSDOS_DIRECTORY) !== 0) return "directory";
  return "file";
}

/**
 * The entry's site path (NFC, no trailing slash for folders). Throws zip_unsafe_path for a name
 * yauzl's own check refuses (traversal, absolute, drive letter, backslash) or that breaks the
 * site path rules (empty or dot names, control characters, over-long names).
 */
export function entryPath(name: string, kind: EntryKind): string {
  const yauzlReason = yauzl.validateFileName(name);
  if (yauzlReason !== null) throw zipError.unsafePath(name, reasonOf(name));
  const bare = kind === "directory" && name.endsWith("/") ? name.slice(0, -1) : name;
  const checked = validateSitePath(bare);
  if (!checked.ok) throw zipError.unsafePath(name, checked.error);
  return checked.path;
}

// yauzl's reasons embed the name; ours come from the same rules, worded for people.
function reasonOf(name: string): string {
  const checked = validateSitePath(name);
  return checked.ok ? "not a relative path" : checked.error;
}

/**
 * Files archivers add that are not part of the site: macOS's resource-fork folder and Finder's
 * folder settings. Skipped silently so that a zip made with Finder unpacks to what the user sees.
 */
export function isJunk(path: string): boolean {
  const first = path.split("/", 1)[0];
  const last = path.slice(path.lastIndexOf("/") + 1);
  return first === "__MACOSX" || last === ".DS_Store";
}
