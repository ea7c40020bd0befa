/** How many blobs a batch works on at once: enough to keep a disk's or a bucket's queue full. */
export const BATCH_CONCURRENCY = 16;

/**
 * Runs `task` on every item, `concurrency` at a time. After the first failure no new task starts;
 * it rejects with that failure once none is running, so nothing is still writing when it settles.
 */
export async function eachLimit<T>(items: readonly T[], task: (item: T) => Promise<unknown>, concurrency = BATCH_CONCURRENCY): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (next < items.length && !failure) {
      const item = items[next++]!;
      await task(item).catch((error: unknown) => void (failure ??= { error }));
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  if (failure) throw failure.error;
}
