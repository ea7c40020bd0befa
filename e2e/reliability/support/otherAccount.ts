// What another account on the machine sees of a directory tree: every entry's mode, and, when the
// tests run as root (CI does), what the `nobody` account gets when it tries to read and write each
// entry itself, through setpriv and a real process.
import { spawnSync } from "node:child_process";
import { lstatSync, readdirSync } from "node:fs";
import path from "node:path";

export interface Entry {
  path: string;
  /** Permission bits, e.g. 0o600. */
  mode: number;
  kind: "directory" | "file" | "other";
}

/** Every entry under `root`, `root` included; symbolic links are listed, never followed. */
export function walk(root: string): Entry[] {
  const entries: Entry[] = [];
  const visit = (entry: string) => {
    const info = lstatSync(entry);
    const kind = info.isDirectory() ? "directory" : info.isFile() ? "file" : "other";
    entries.push({ path: entry, mode: info.mode & 0o7777, kind });
    if (kind === "directory") for (const name of readdirSync(entry)) visit(path.join(entry, name));
  };
  visit(root);
  return entries;
}

/** "0644 outbox/x.eml" for every entry with a group or other bit. */
export function openToOthers(root: string, entries: readonly Entry[]): string[] {
  return entries
    .filter((entry) => (entry.mode & 0o077) !== 0)
    .map((entry) => `${entry.mode.toString(8).padStart(4, "0")} ${path.relative(root, entry.path) || "."}`);
}

/** How many entries have each mode, e.g. "968 × 0600 file, 27 × 0700 directory", most first. */
export function modeCounts(entries: readonly Entry[]): string {
  const counts = new Map<string, number>();
  for (const entry of entries) {
    const key = `${entry.mode.toString(8).padStart(4, "0")} ${entry.kind}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([key, count]) => `${count} × ${key}`)
    .join(", ");
}

export const NOBODY = 65534;

export const canSwitchUser = (): boolean => process.getuid?.() === 0;

export interface Attempt {
  path: string;
  /** "ok", or the error code: EACCES is what a private tree gives. */
  read: string;
  write: string;
}

// Runs as nobody. A file is opened for reading, then for writing (r+: nothing is changed even if it
// opens); in a directory, a listing is read, then a new file is created.
const PROBE = `
const fs = require("node:fs");
const path = require("node:path");
const attempt = (fn) => { try { fn(); return "ok"; } catch (error) { return error.code || String(error); } };
const out = [];
for (const entry of JSON.parse(fs.readFileSync(0, "utf8"))) {
  const dir = entry.kind === "directory";
  out.push({
    path: entry.path,
    read: attempt(() => (dir ? fs.readdirSync(entry.path) : fs.closeSync(fs.openSync(entry.path, "r")))),
    write: attempt(() => (dir ? fs.closeSync(fs.openSync(path.join(entry.path, "nobody-was-here"), "wx")) : fs.closeSync(fs.openSync(entry.path, "r+")))),
  });
}
process.stdout.write(JSON.stringify(out));
`;

/** Tries to read and write each entry as `nobody`. Only as root, which alone may switch users. */
export function attemptsAsNobody(entries: readonly Entry[]): Attempt[] {
  const result = spawnSync("setpriv", [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups", "--", process.execPath, "-e", PROBE], {
    input: JSON.stringify(entries.filter((entry) => entry.kind !== "other")),
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`the probe as nobody failed (${String(result.status ?? result.error)}): ${result.stderr}`);
  return JSON.parse(result.stdout) as Attempt[];
}
