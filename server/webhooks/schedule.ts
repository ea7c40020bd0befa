// When a failed delivery is tried again: 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, then every 4 h,
// until its retry window (a day from the event, or from a redelivery) is over. Quick at first, for a
// receiver that blinked, then sparse, for one that is down for hours.
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

export const RETRY_DELAYS_MS: readonly number[] = [30 * SECOND, 2 * MINUTE, 10 * MINUTE, 30 * MINUTE, HOUR, 2 * HOUR, 4 * HOUR];

/** The wait after the `attempts`-th failed attempt (1 for the first); the last delay repeats. */
export function retryDelayMs(attempts: number): number {
  const index = Math.min(Math.max(attempts, 1), RETRY_DELAYS_MS.length) - 1;
  return RETRY_DELAYS_MS[index]!;
}

/** When to try again after the `attempts`-th failure at `now`, or null: the window is over, the delivery failed. */
export function nextAttemptAt(attempts: number, now: Date, retryUntil: Date): Date | null {
  const next = new Date(now.getTime() + retryDelayMs(attempts));
  return next.getTime() <= retryUntil.getTime() ? next : null;
}
