// Compiles the edge's native addon (server/edge/native/kernelSend.c) into dist/native with the
// machine's C compiler and Node's own headers. Optional: without a compiler, or off Linux, the
// edge writes bodies through Node instead (slower for bodies over 16 KB, the same otherwise), and
// the blob store syncs a batch file by file instead of with syncfs (slower for many small files).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, renameSync, statSync } from "node:fs";
import path from "node:path";
import { root } from "./source-hash.mjs";

export const nativeSource = path.join(root, "server/edge/native/kernelSend.c");
export const nativeOutput = path.join(root, "dist/native/kernel_send.node");

/** Builds the addon when it is missing or older than its source; returns whether it exists. */
export function buildNative() {
  if (process.platform !== "linux") return false;
  if (existsSync(nativeOutput) && statSync(nativeOutput).mtimeMs >= statSync(nativeSource).mtimeMs) return true;
  const headers = path.resolve(path.dirname(process.execPath), "..", "include", "node");
  const compiler = process.env.CC || "cc";
  if (!existsSync(path.join(headers, "node_api.h"))) {
    console.warn(`Native sends skipped: Node's headers are not at ${headers}.`);
    return false;
  }
  mkdirSync(path.dirname(nativeOutput), { recursive: true });
  const temporary = `${nativeOutput}.${process.pid}.tmp`;
  try {
    execFileSync(compiler, ["-O2", "-Wall", "-Wextra", "-shared", "-fPIC", "-I", headers, "-o", temporary, nativeSource], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    // A rename, so a concurrent build or a running server never loads half a file.
    renameSync(temporary, nativeOutput);
    return true;
  } catch (error) {
    console.warn(`Native sends skipped: ${compiler} failed: ${String(error.stderr ?? error.message).trim()}`);
    return false;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exit(buildNative() ? 0 : 1);
}
