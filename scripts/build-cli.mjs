// Builds the berth CLI (cli/src, TypeScript) into one plain JavaScript file, cli/dist/berth.js,
// which `npm install -g ./cli`, `npm pack ./cli` and `node cli/dist/berth.js` use. The root
// build runs it, and cli/package.json's prepack, so a tarball always holds a fresh build. The
// CLI has no runtime dependencies: what it takes from common/ is types only, erased here (a
// value import would bundle zod; the ESLint rule for cli/ refuses one).
import { build } from "esbuild";
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, renameSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { LAZY_BUILTINS_BANNER, lazyBuiltins } from "./lazy-builtins.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const cliDir = path.join(root, "cli");
export const cliEntry = path.join(cliDir, "dist/berth.js");

/** Builds the CLI into `outfile` (cli/dist/berth.js unless told). */
export async function buildCli({ outfile = cliEntry, quiet = false } = {}) {
  const { engines } = JSON.parse(readFileSync(path.join(cliDir, "package.json"), "utf8"));
  await build({
    entryPoints: [path.join(cliDir, "src/berth.ts")],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    // The oldest Node the package promises (engines), so a newer syntax never slips in.
    target: `node${engines.node.replace(/[^\d.]/g, "").split(".")[0]}`,
    plugins: [lazyBuiltins],
    banner: { js: `#!/usr/bin/env node\n${LAZY_BUILTINS_BANNER}` },
    legalComments: "none",
    logLevel: quiet ? "warning" : "info",
  });
  chmodSync(outfile, 0o755);
  return outfile;
}

/** The name the server offers the package under: fixed, so its address never changes between versions. */
export const CLI_TARBALL = "berth-cli.tgz";

/**
 * Packs the built CLI with npm (scripts off: it is built already) into `destDir`/berth-cli.tgz.
 * The root build puts it in dist/web/cli/, so every Berth server offers its own CLI at
 * /cli/berth-cli.tgz for `npm install -g <server>/cli/berth-cli.tgz` (the CI recipes do this).
 */
export function packCli(destDir) {
  mkdirSync(destDir, { recursive: true });
  const output = execFileSync("npm", ["pack", cliDir, "--ignore-scripts", "--pack-destination", destDir, "--json"], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  const [{ filename }] = JSON.parse(output);
  const target = path.join(destDir, CLI_TARBALL);
  renameSync(path.join(destDir, filename), target);
  return target;
}

// `node scripts/build-cli.mjs [outfile]`: tests build into a place of their own.
if (import.meta.url === `file://${process.argv[1]}`) {
  await buildCli(process.argv[2] ? { outfile: path.resolve(process.argv[2]), quiet: true } : {});
}
