// Cached bodies the kernel can send itself: each one's bytes live in a sealed memfd, and the
// cache keeps a Buffer over the same pages (kernelSend.c). The edge's HTTP/1.1 layer looks a
// body up here by identity and, when found, sends it with sendfile instead of copying it.
import { closeSync } from "node:fs";
import { kernelSend, KERNEL_SEND_MIN_BYTES } from "./kernelSend";

const fds = new Map<Buffer, number>();

/** The most bodies one thread seals. */
const MAX_SEALED = 4096;

/**
 * In an edge worker: its sealed bodies' descriptors, one a slot (-1: free), in memory the main
 * thread shares. A thread's exit does not close raw descriptors, so the main thread closes the
 * ones a dead worker still lists (closeSealedLedger).
 */
let ledger: Int32Array | undefined;
const slots = new Map<Buffer, number>();
const freeSlots: number[] = [];

/**
 * Each sealed body holds an fd: a quarter of the process's allowance at most, and never over 4,096.
 * Threads share the process's descriptors, so each edge thread takes its part of that quarter.
 */
let maxSealed = sealedLimit(1);

function sealedLimit(threads: number): number {
  return kernelSend ? Math.max(0, Math.min(MAX_SEALED, Math.floor(kernelSend.openFileLimit() / 4 / threads))) : 0;
}

/** A ledger for a worker about to start, every slot free. */
export function newSealedLedger(): Int32Array<SharedArrayBuffer> {
  return new Int32Array(new SharedArrayBuffer(MAX_SEALED * 4)).fill(-1);
}

/** Called by an edge worker before it caches anything: it lists its descriptors there. */
export function useSealedLedger(shared: Int32Array): void {
  ledger = shared;
  freeSlots.length = 0;
  for (let slot = shared.length - 1; slot >= 0; slot--) freeSlots.push(slot);
}

/** After the worker's thread exited: closes the descriptors it still listed, once. */
export function closeSealedLedger(shared: Int32Array): void {
  for (let slot = 0; slot < shared.length; slot++) {
    const fd = Atomics.exchange(shared, slot, -1);
    if (fd < 0) continue;
    try {
      closeSync(fd);
    } catch {
      // Not open: nothing to do.
    }
  }
}

/** Called by each edge thread before it caches anything: `threads` serve from this process. */
export function shareSealedBodies(threads: number): void {
  maxSealed = sealedLimit(threads);
}

/** The memfd holding this exact Buffer's bytes, if it is a sealed body still in the cache. */
export function sealedFileOf(body: Buffer): number | undefined {
  return fds.get(body);
}

/**
 * The bytes to keep in the cache: a sealed view when the body is big enough to gain from it and
 * fds remain, else the buffer itself. Never throws; a failed seal keeps the plain buffer.
 */
export function seal(buffer: Buffer): Buffer {
  if (kernelSend === undefined || buffer.length < KERNEL_SEND_MIN_BYTES || fds.size >= maxSealed) return buffer;
  try {
    const [fd, view] = kernelSend.sealedCopy(buffer);
    fds.set(view, fd);
    if (ledger !== undefined) {
      const slot = freeSlots.pop()!;
      slots.set(view, slot);
      Atomics.store(ledger, slot, fd);
    }
    return view;
  } catch {
    return buffer;
  }
}

/**
 * The cache let the body go: its fd closes now (sendfile runs synchronously, so no send is
 * using it), and the view's pages go when the last Buffer over them is collected.
 */
export function unseal(body: Buffer): void {
  const fd = fds.get(body);
  if (fd === undefined) return;
  fds.delete(body);
  const slot = slots.get(body);
  if (slot !== undefined) {
    // Off the ledger first: a thread that dies in between leaves one descriptor open, never
    // one closed twice.
    slots.delete(body);
    Atomics.store(ledger!, slot, -1);
    freeSlots.push(slot);
  }
  closeSync(fd);
}

/** How many bodies are sealed now (tests, diagnostics). */
export function sealedCount(): number {
  return fds.size;
}
