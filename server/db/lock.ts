// PGlite has no cross-process locking: two processes on one data directory would corrupt it.
// Each Berth process holds a lock file naming its pid; a second one refuses to start.
import { openSync, writeSync, closeSync, readFileSync, rmSync, mkdirSync } from "node:fs";
import path from "node:path";
import { PRIVATE_DIR, PRIVATE_FILE } from "../privateFiles";

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `Another Berth process (pid ${pid}) is already using the data directory ${dataDir}. ` +
        `Stop that process first, or start this one with a different BERTH_DATA_DIR.`,
    );
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Takes the data directory's lock, or throws DataDirLockedError. Returns the release function. */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR });
  const lockPath = path.join(dataDir, "berth.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, "wx", PRIVATE_FILE);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(lockPath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = Number.parseInt(readFileSync(lockPath, "utf8").trim(), 10);
      if (Number.isInteger(holder) && holder !== process.pid && isAlive(holder)) {
        throw new DataDirLockedError(dataDir, holder);
      }
      // The previous holder died without cleaning up (a crash or SIGKILL): the lock is stale.
      rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`Could not take the lock ${lockPath}`);
}
