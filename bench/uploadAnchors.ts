// The upload bench's anchors, the least that can be done with the same bytes: a child-process
// sink server that only writes a body to a file (sinkServer.ts), and plain unzips of the same zip
// with yauzl (with and without fsync) and with Info-ZIP.
import { spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import { mkdir, open } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import yauzl from "yauzl";
import { stopChild } from "./support";

/**
 * Unzips every file of `zipPath` under `dir` with yauzl and plain streams, as an `unzip` would.
 * `sync`: fsync each file and its folder, the durability Berth's blob store pays for. Returns ms.
 */
export async function extractWithYauzl(zipPath: string, dir: string, sync: boolean): Promise<number> {
  const started = performance.now();
  const zip = await yauzl.openPromise(zipPath, {
    lazyEntries: true,
    autoClose: false,
  });
  try {
    const made = new Set<string>();
    for await (const entry of zip.eachEntry()) {
      if (entry.fileName.endsWith("/")) continue;
      const target = path.join(dir, entry.fileName);
      const folder = path.dirname(target);
      if (!made.has(folder)) {
        await mkdir(folder, { recursive: true });
        made.add(folder);
      }
      await pipeline(await zip.openReadStreamPromise(entry), createWriteStream(target, { flush: sync }));
      if (sync) {
        const handle = await open(folder, "r");
        await handle.sync().finally(() => handle.close());
      }
    }
  } finally {
    zip.close();
  }
  return performance.now() - started;
}

/** The same with Info-ZIP's `unzip` (native, no fsync), when it is installed; ms, or undefined. */
export function extractWithUnzip(zipPath: string, dir: string): Promise<number | undefined> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn("unzip", ["-q", "-o", zipPath, "-d", dir], { stdio: "ignore" });
    child.once("error", (error: NodeJS.ErrnoException) => (error.code === "ENOENT" ? resolve(undefined) : reject(error)));
    child.once("exit", (code) => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`unzip exited ${String(code)}`))));
  });
}

export interface Sink {
  port: number;
  stop(): Promise<void>;
}

/** Starts sinkServer.ts as a child (through the same tsx loader as this process). */
export async function startSink(script: string, dir: string): Promise<Sink> {
  const child = spawn(process.execPath, [...process.execArgv, script, dir], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split("\n")[0];
      if (out.includes("\n") && line) resolve((JSON.parse(line) as { port: number }).port);
    });
    child.once("exit", (code) => reject(new Error(`sink exited (${String(code)}) before listening`)));
  });
  return { port, stop: () => stopChild(child) };
}
