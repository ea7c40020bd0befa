// When a failed delivery is tried again: after each of WEBHOOK_RETRY_DELAYS_MS in turn (the docs
// page lists the same numbers), the last one repeating, until its retry window (a day from the
// event, or from a redelivery) is over.
import { WEBHOOK_RETRY_DELAYS_MS as RETRY_DELAYS_MS } from "../../common/webhooks";

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
