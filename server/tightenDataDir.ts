// At start, takes group and other permissions off everything in the data directory (chmod -R
// go-rwx): a directory made by an older Berth, or copied in by an operator under umask 022, would
// otherwise stay readable (and the database writable) by every account on the machine.
//
// Symbolic links are never followed below the directory itself (which may be one, pointing at the
// real storage): a link planted inside must not make Berth change the mode of a file elsewhere.
// Each file or directory is opened without following links and changed through its descriptor, so
// swapping it for a link between the look and the change achieves nothing either. A directory is
// tightened before it is listed, so once the walk is inside it nobody else can rename its entries;
// a directory owned by another account is not entered at all (its owner could swap what is in it
// for links while the walk goes through a path). Sockets and other special files are left alone:
// Berth makes only admin.sock, and replaces it at start.
import { closeSync, constants, fchmodSync, fstatSync, lstatSync, openSync, readdirSync, statSync, type Stats } from "node:fs";
import path from "node:path";
import { GROUP_AND_OTHER } from "./privateFiles";

export interface Tightening {
  /** Entries whose mode lost group or other bits. */
  changed: number;
  /** Entries that could not be changed (owned by another user, gone, unreadable), with why. */
  failed: Array<{ path: string; code: string }>;
}

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

export function tightenDataDir(root: string): Tightening {
  const result: Tightening = { changed: 0, failed: [] };
  let rootInfo: Stats;
  try {
    rootInfo = statSync(root);
  } catch (error) {
    if (errorCode(error) === "ENOENT") return result;
    throw error;
  }
  if (!rootInfo.isDirectory()) return result;
  // The root is opened following a link (an operator's symlinked data directory); nothing below it is.
  tighten(root, rootInfo, constants.O_RDONLY | constants.O_DIRECTORY, result);
  const directories = [root];
  for (let dir = directories.pop(); dir !== undefined; dir = directories.pop()) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch (error) {
      result.failed.push({ path: dir, code: errorCode(error) });
      continue;
    }
    for (const name of names) {
      const entry = path.join(dir, name);
      let info: Stats;
      try {
        info = lstatSync(entry);
      } catch (error) {
        // Deleted since the listing: nothing left to tighten.
        if (errorCode(error) !== "ENOENT") result.failed.push({ path: entry, code: errorCode(error) });
        continue;
      }
      if (info.isDirectory()) {
        tighten(entry, info, OPEN_FLAGS | constants.O_DIRECTORY, result);
        if (info.uid === rootInfo.uid) directories.push(entry);
        else result.failed.push({ path: entry, code: "another account's directory, not entered" });
      } else if (info.isFile()) {
        tighten(entry, info, OPEN_FLAGS, result);
      }
    }
  }
  return result;
}

function tighten(entry: string, seen: Stats, flags: number, result: Tightening): void {
  if ((seen.mode & GROUP_AND_OTHER) === 0) return;
  let fd: number;
  try {
    fd = openSync(entry, flags);
  } catch (error) {
    const code = errorCode(error);
    // ENOENT: deleted meanwhile. ELOOP/ENOTDIR: replaced by a link, which is not followed.
    if (code !== "ENOENT" && code !== "ELOOP" && code !== "ENOTDIR") result.failed.push({ path: entry, code });
    return;
  }
  try {
    const info = fstatSync(fd);
    // Replaced by another file since the look: it is judged on its own when the walk gets there, or not at all.
    if (info.ino !== seen.ino || info.dev !== seen.dev) return;
    if ((info.mode & GROUP_AND_OTHER) === 0) return;
    fchmodSync(fd, info.mode & 0o7777 & ~GROUP_AND_OTHER);
    result.changed++;
  } catch (error) {
    result.failed.push({ path: entry, code: errorCode(error) });
  } finally {
    closeSync(fd);
  }
}

function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? String(error);
}
