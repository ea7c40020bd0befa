// An esbuild plugin for the server's and the CLI's bundles: Node's built-in modules are loaded
// with require(), not imported as ES modules.
//
// Why: to import a built-in as an ES module, Node builds its namespace from every export, which
// runs the lazy getters Node puts on some of them. On Node 24 `import "node:http"` thereby loads
// undici, http2, zlib, worker_threads and the REPL's history: 50 ms and about 8 MB of a fresh
// process, against 8 ms when required. require() hands back the module object with its getters
// still lazy. The bundle reads each import through esbuild's CommonJS interop, whose named
// exports are getters over that object, so nothing is read before the code uses it.
//
// Each output file gets `__berthRequire` from the banner below (it needs import.meta.url, which
// only an ES module has).

export const LAZY_BUILTINS_BANNER =
  'import { createRequire as __berthCreateRequire } from "node:module";\nconst __berthRequire = __berthCreateRequire(import.meta.url);';

const NAMESPACE = "lazy-builtin";

/** @type {import("esbuild").Plugin} */
export const lazyBuiltins = {
  name: "lazy-builtins",
  setup(build) {
    build.onResolve({ filter: /^node:/ }, (args) =>
      // node:module is what the banner imports; it has no lazy exports worth keeping.
      args.path === "node:module" ? { path: args.path, external: true } : { path: args.path, namespace: NAMESPACE },
    );
    build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => ({
      contents: `module.exports = __berthRequire(${JSON.stringify(args.path)});`,
      loader: "js",
    }));
  },
};
