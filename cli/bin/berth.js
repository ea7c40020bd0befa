#!/usr/bin/env node
// The `berth` executable: starts the built CLI, ../dist/berth.js. The build writes that file
// (`npm run build` at the repository's root, or `npm pack ./cli`, which builds first), so a
// global install linked to an unbuilt checkout says what to do instead of failing obscurely.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const built = new URL("../dist/berth.js", import.meta.url);
if (!existsSync(built)) {
  process.stderr.write(`berth: the CLI is not built yet (no ${fileURLToPath(built)}): run npm run build in the Berth repository\n`);
  process.exit(1);
}
await import(built.href);
