// `npm start`: builds on the first start (or when the sources changed), then runs the server.
import { existsSync, readFileSync } from "node:fs";
import { spawn } from "node:child_process";
import path from "node:path";
import { root, sourceHash } from "./source-hash.mjs";
import { SERVER_NODE_FLAGS } from "./server-flags.mjs";

const stampFile = path.join(root, "dist/.build-stamp");
const current = existsSync(stampFile) ? readFileSync(stampFile, "utf8") : "";
if (current !== sourceHash() || !existsSync(path.join(root, "dist/server/main.js"))) {
  console.log(current ? "Sources changed; rebuilding Berth…" : "First start: building Berth (this takes a few seconds)…");
  const { buildAll } = await import("./build.mjs");
  await buildAll({ quiet: true });
}

const child = spawn(
  process.execPath,
  [...SERVER_NODE_FLAGS, "--enable-source-maps", path.join(root, "dist/server/main.js"), ...process.argv.slice(2)],
  {
    stdio: "inherit",
  },
);
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
