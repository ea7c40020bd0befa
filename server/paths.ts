// Finds files that ship with Berth (migrations, the built dashboard) the same way whether the
// server runs from source (tsx, vitest) or from the bundle in dist/.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

function findProjectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = path.join(dir, "package.json");
    if (existsSync(manifest)) {
      const { name } = JSON.parse(readFileSync(manifest, "utf8")) as { name?: string };
      if (name === "berth") return dir;
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error("Cannot find Berth's package.json above " + import.meta.url);
    dir = parent;
  }
}

export const projectRoot = findProjectRoot();
export const migrationsDir = path.join(projectRoot, "migrations");
export const webDistDir = path.join(projectRoot, "dist", "web");
