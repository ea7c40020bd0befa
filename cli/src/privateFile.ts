import { chmodSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * Replaces `file` with `text` whole, readable by this user only: its folder made owner-only, the
 * text written to a temporary file beside it, then renamed over it, so a reader never sees half.
 */
export function writePrivateFile(file: string, text: string): void {
  const dir = path.dirname(file);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // mkdir's mode applies only to folders it creates (and is cut by the umask): set it either way.
  chmodSync(dir, 0o700);
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, file);
}
