// Keeps the C library's allocator from holding on to what bursts allocated. Without it, a server
// that took one daily backup (the embedded database's copy passes through memory) stayed at
// 416 MB resident at idle instead of 267 MB, for the rest of its life. The calls come from the
// edge's native addon (kernelSend.c); without the addon or off glibc, nothing changes.

/** The C library's allocator, for the whole process (kernelSend.c says why). */
export interface NativeMalloc {
  /** A fixed mmap threshold and two arenas; false when the C library is not glibc. */
  tuneMalloc: () => boolean;
  /** Returns every free page to the kernel; true when some were. */
  trimMalloc: () => boolean;
}

/** Often enough that a burst's pages go back within a minute; a trim costs well under a millisecond. */
const TRIM_EVERY_MS = 60_000;

/** Tunes the allocator now and trims it every minute; returns what stops the trimming. */
export function keepMallocLean(native: NativeMalloc | undefined): () => void {
  if (!native?.tuneMalloc()) return () => {};
  const timer = setInterval(() => native.trimMalloc(), TRIM_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
