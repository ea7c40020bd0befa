// A hash over every source file the build reads. Cheap (stat-free reads of a few hundred small
// files), so `npm start` can skip the build when nothing changed.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const INPUTS = ["server", "web", "common", "cli", "docs", "vite.config.ts", "package-lock.json"];
const SKIP = new Set(["node_modules", "dist"]);

function walk(target, files) {
  const stat = statSync(target, { throwIfNoEntry: false });
  if (!stat) return;
  if (stat.isFile()) {
    if (!/\.test\.tsx?$/.test(target)) files.push(target);
    return;
  }
  for (const entry of readdirSync(target).sort()) {
    if (!SKIP.has(entry)) walk(path.join(target, entry), files);
  }
}

export function sourceHash() {
  const files = [];
  for (const input of INPUTS) walk(path.join(root, input), files);
  const hash = createHash("sha256");
  for (const file of files) {
    hash.update(path.relative(root, file)).update("\0").update(readFileSync(file)).update("\0");
  }
  return hash.digest("hex");
}
