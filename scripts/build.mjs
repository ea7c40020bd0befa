// Builds what `npm start` runs: the dashboard (Vite) into dist/web and the server (esbuild) into
// dist/server; and the berth CLI into cli/dist/berth.js, packed into dist/web/cli/berth-cli.tgz
// so the server offers it for download. Writes dist/.build-stamp with a hash of the sources, so start.mjs can tell
// whether a rebuild is needed.
import { build as viteBuild } from "vite";
import { build as esbuild } from "esbuild";
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { sourceHash, root } from "./source-hash.mjs";
import { buildNative } from "./build-native.mjs";
import { buildCli, packCli } from "./build-cli.mjs";
import { LAZY_BUILTINS_BANNER, lazyBuiltins } from "./lazy-builtins.mjs";
import { requireCommonJs } from "./require-commonjs.mjs";
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
    plugins: [lazyBuiltins, requireCommonJs],
    banner: { js: LAZY_BUILTINS_BANNER },
    sourcemap: true,
    logLevel: quiet ? "warning" : "info",
  });
  for (const file of ["main.js", "edgeWorker.js"]) latin1Only(path.join(root, "dist/server", file));
  mkdirSync(path.join(root, "dist"), { recursive: true });
  // After Vite, which empties dist/web.
  await buildCli({ quiet });
  packCli(path.join(root, "dist/web/cli"));
  buildNative();
  writeFileSync(path.join(root, "dist/.build-stamp"), sourceHash());
  if (!quiet) console.log(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/**
 * esbuild escapes what is outside ASCII in code, but not in the comments it keeps. One such
 * character makes V8 hold the whole file's source two bytes a character, in every thread that
 * loads it: 1.7 MB rather than 0.84 MB for main.js. In a comment an escape is only text.
 */
function latin1Only(file) {
  const code = readFileSync(file, "utf8");
  const escaped = code.replace(/[^\0-\xff]/gu, (c) => `\\u{${c.codePointAt(0).toString(16)}}`);
  if (escaped !== code) writeFileSync(file, escaped);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await buildAll();
}
