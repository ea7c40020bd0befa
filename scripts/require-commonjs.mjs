// An esbuild plugin for the server's bundles: packages written only as CommonJS are loaded with
// require(), as they would be from a CommonJS file, not imported as ES modules.
//
// Why: Node imports a CommonJS module into an ES module by reading its source, scanning it for
// the names it exports, and then running it through the CommonJS loader, which reads it again.
// V8 then keeps the source twice for the life of the process: tldts, one 215 KB file, took
// 430 KB of the server's heap. require() reads it once, and the bundle's CommonJS interop gives
// the importing code the same default and named exports.
//
// Only packages whose import and require resolve to the same CommonJS file: a package that ships
// an ES module for import and CommonJS for require stays imported, or the process would hold two
// instances of it. Uses `__berthRequire` from lazy-builtins.mjs's banner. Dynamic imports stay
// lazy: esbuild runs the require() where the import() was.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const NAMESPACE = "require-commonjs";
const requireHere = createRequire(import.meta.url);

/** Whether Node would treat this file as CommonJS: .cjs, or .js in a package that is not "type": "module". */
function isCommonJsFile(file) {
  if (file.endsWith(".cjs")) return true;
  if (!file.endsWith(".js")) return false;
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    try {
      return JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")).type !== "module";
    } catch {
      if (path.dirname(dir) === dir) return true;
    }
  }
}

const known = new Map();

/** Whether `specifier` names a package that import and require both load as the same CommonJS file. */
export function commonJsOnly(specifier) {
  if (!known.has(specifier)) {
    let answer = false;
    try {
      const required = requireHere.resolve(specifier);
      const imported = fileURLToPath(import.meta.resolve(specifier));
      answer = required === imported && isCommonJsFile(required);
    } catch {
      // Not resolvable from here (or only one way): leave it to esbuild and Node as it is.
    }
    known.set(specifier, answer);
  }
  return known.get(specifier);
}

/** @type {import("esbuild").Plugin} */
export const requireCommonJs = {
  name: "require-commonjs",
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith("node:") || !commonJsOnly(args.path)) return undefined;
      return { path: args.path, namespace: NAMESPACE };
    });
    build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => ({
      contents: `module.exports = __berthRequire(${JSON.stringify(args.path)});`,
      loader: "js",
    }));
  },
};
