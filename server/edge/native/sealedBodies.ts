// Cached bodies the kernel can send itself: each one's bytes live in a sealed memfd, and the
// cache keeps a Buffer over the same pages (kernelSend.c). The edge's HTTP/1.1 layer looks a
// body up here by identity and, when found, sends it with sendfile instead of copying it.
import { closeSync } from "node:fs";
import { kernelSend, KERNEL_SEND_MIN_BYTES } from "./kernelSend";

const fds = new Map<Buffer, number>();

/** Each sealed body holds an fd: a quarter of the process's allowance at most, and never over 4,096. */
const MAX_SEALED = kernelSend ? Math.max(0, Math.min(4096, Math.floor(kernelSend.openFileLimit() / 4))) : 0;

/** The memfd holding this exact Buffer's bytes, if it is a sealed body still in the cache. */
export function sealedFileOf(body: Buffer): number | undefined {
  return fds.get(body);
}

/**
 * The bytes to keep in the cache: a sealed view when the body is big enough to gain from it and
 * fds remain, else the buffer itself. Never throws; a failed seal keeps the plain buffer.
 */
export function seal(buffer: Buffer): Buffer {
  if (kernelSend === undefined || buffer.length < KERNEL_SEND_MIN_BYTES || fds.size >= MAX_SEALED) return buffer;
  try {
    const [fd, view] = kernelSend.sealedCopy(buffer);
    fds.set(view, fd);
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
  closeSync(fd);
}

/** How many bodies are sealed now (tests, diagnostics). */
export function sealedCount(): number {
  return fds.size;
}
