// The size of libuv's thread pool, which runs Node's file system calls (and zlib, crypto's async
// calls and dns.lookup). Node's default of 4 lets only four calls wait on the disk at once: a
// deploy of 1,000 small files makes 2,000 syncs (each file, then each new name's folder), which
// take about half as long with 16 at once, because side-by-side syncs share the journal's commits.
// An idle thread costs a few kilobytes of resident memory.

export const THREAD_POOL_SIZE = 16;

/**
 * Sets the pool's size unless the operator did (UV_THREADPOOL_SIZE). libuv reads it when the pool
 * starts, at the first call that needs it, so this runs before anything reads a file
 * asynchronously.
 */
export function sizeThreadPool(env: NodeJS.ProcessEnv = process.env): void {
  env.UV_THREADPOOL_SIZE ??= String(THREAD_POOL_SIZE);
}
