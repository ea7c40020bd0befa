// Builds what `npm start` runs: the dashboard (Vite) into dist/web and the server (esbuild) into
// dist/server; and the berth CLI into cli/dist/berth.js, packed into dist/web/cli/berth-cli.tgz
// so the server offers it for download. Writes dist/.build-stamp with a hash of the sources, so start.mjs can tell
// whether a rebuild is needed.
import { build as viteBuild } from "vite";
import { build as esbuild } from "esbuild";
import { writeFileSync, mkdirSync } from "node:fs";
import { sourceHash, root } from "./source-hash.mjs";
import { buildNative } from "./build-native.mjs";
import { buildCli, packCli } from "./build-cli.mjs";
import path from "node:path";

export async function buildAll({ quiet = false } = {}) {
  const started = Date.now();
  await viteBuild({ configFile: path.join(root, "vite.config.ts"), logLevel: quiet ? "warn" : "info" });
  await esbuild({
    // The edge workers' threads start from a file of their own, next to main.js (edge/workers/pool.ts).
    entryPoints: { main: path.join(root, "server/main.ts"), edgeWorker: path.join(root, "server/edge/workers/thread.ts") },
    outdir: path.join(root, "dist/server"),
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    sourcemap: true,
    logLevel: quiet ? "warning" : "info",
  });
  mkdirSync(path.join(root, "dist"), { recursive: true });
  // After Vite, which empties dist/web.
  await buildCli({ quiet });
  packCli(path.join(root, "dist/web/cli"));
  buildNative();
  writeFileSync(path.join(root, "dist/.build-stamp"), sourceHash());
  if (!quiet) console.log(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await buildAll();
}
