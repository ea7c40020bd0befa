// Loads the native addon (kernelSend.c): the kernel sends cached bodies from its own pages, and
// ready answers go out in one send(). Absent off Linux, when it was not built (no C compiler),
// or switched off (BERTH_NATIVE_SEND=false, passed in by useNativeSend): then every answer is
// written through Node, as before.
import { createRequire } from "node:module";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { NativeMalloc } from "../../idleMemory";

export interface KernelSend {
  /** The bytes copied once into a sealed memfd: its fd, and a Buffer over the same pages. */
  sealedCopy: (buffer: Buffer) => [fd: number, view: Buffer];
  /** Sends head then `length` bytes of `fd` without blocking: the bytes sent, or -errno. */
  sendHead: (socketFd: number, head: Buffer, fd: number, length: number) => number;
  /** Sends `buffer` without blocking: the bytes sent (maybe fewer), or -errno. */
  sendBuffer: (socketFd: number, buffer: Buffer) => number;
  openFileLimit: () => number;
  /** A second descriptor for the same open socket (close-on-exec), or -errno. */
  dupFd: (fd: number) => number;
}

/** Bodies below this are cheaper to copy than to send from a file (bench:edge, gzip case). */
export const KERNEL_SEND_MIN_BYTES = 16 * 1024;

// From the bundle (dist/server/main.js) the addon is next door; from the sources (tests, tsx),
// it is where scripts/build-native.mjs puts it.
const CANDIDATES = ["../native/kernel_send.node", "../../../dist/native/kernel_send.node"];

/** Set when the addon loads, whatever BERTH_NATIVE_SEND says: it concerns memory, not sends. */
export let nativeMalloc: NativeMalloc | undefined;

/**
 * syncfs(2) on the filesystem that holds `fd`, run in libuv's thread pool: resolves to 0, or to
 * -errno. Set when the addon loads, whatever BERTH_NATIVE_SEND says (the blob store's, not the
 * edge's); undefined without it, or with an addon built before it had the call.
 */
export let syncFilesystem: ((fd: number) => Promise<number>) | undefined;

function load(): KernelSend | undefined {
  if (process.platform !== "linux") return undefined;
  const require = createRequire(import.meta.url);
  for (const candidate of CANDIDATES) {
    const file = fileURLToPath(new URL(candidate, import.meta.url));
    if (!existsSync(file)) continue;
    try {
      const addon = require(file) as KernelSend & NativeMalloc & { syncFilesystem?: (fd: number) => Promise<number> };
      nativeMalloc = { tuneMalloc: addon.tuneMalloc, trimMalloc: addon.trimMalloc };
      if (typeof addon.syncFilesystem === "function") syncFilesystem = addon.syncFilesystem;
      // A plain object, so tests can watch the calls.
      return {
        sealedCopy: addon.sealedCopy,
        sendHead: addon.sendHead,
        sendBuffer: addon.sendBuffer,
        openFileLimit: addon.openFileLimit,
        dupFd: addon.dupFd,
      };
    } catch (error) {
      process.emitWarning(`The edge's native addon did not load (${String(error)}); bodies are written through Node.`);
      return undefined;
    }
  }
  return undefined;
}

const addon = load();

/** The addon when it loaded and is in use; undefined sends everything through Node. */
export let kernelSend: KernelSend | undefined = addon;

/**
 * Duplicates a connection's descriptor so another thread can own it (edge/workers/): present with
 * the addon whatever BERTH_NATIVE_SEND says, since it sends nothing. Undefined without the addon,
 * or with an addon built before it had the call.
 */
export const dupFd: ((fd: number) => number) | undefined = typeof addon?.dupFd === "function" ? addon.dupFd : undefined;

/**
 * Whether the edge sends through the addon (BERTH_NATIVE_SEND, parsed by env.ts). One setting per
 * process, as the sealed bodies are; set where the edge is built, before it serves.
 */
export function useNativeSend(enabled: boolean): void {
  kernelSend = enabled ? addon : undefined;
}
