// The one way Berth rate-limits a check (a password, a code) or a send: the attempt is counted
// first, in one statement, and only an attempt within the limit goes on to the check. Checking
// the limit, then verifying, then counting the failure let a burst of parallel requests all pass
// the check before the first of them was counted: 100 guesses sent at once were 100 verified.
import type { Db } from "../db/client";
import { consumeRateLimit, giveBackRateLimit, type RateLimitRule } from "../db/repositories/rateLimits";

export interface AttemptLimit {
  /** The counter, starting with "berth:" and naming what is limited and for whom. */
  key: string;
  rule: RateLimitRule;
}

export type CountedAttempt =
  | { allowed: false; retryAfterSeconds: number }
  | {
      allowed: true;
      /** Takes this attempt back from the count, for limits that only count failures. */
      giveBack: () => Promise<void>;
    };

/**
 * Counts the attempt, atomically, before anything else happens: however many arrive at once, at
 * most `rule.max` per window are allowed. For callers whose check runs elsewhere (better-auth's
 * endpoints), which give the attempt back themselves; everything else uses limitedAttempt.
 */
export async function countAttempt(db: Db, limit: AttemptLimit): Promise<CountedAttempt> {
  const counted = await consumeRateLimit(db, limit.key, limit.rule);
  if (!counted.allowed) return { allowed: false, retryAfterSeconds: counted.retryAfterSeconds };
  return { allowed: true, giveBack: () => giveBackRateLimit(db, limit.key, counted.windowStartedAt) };
}

export type AttemptOutcome<T> = { limited: true; retryAfterSeconds: number } | { limited: false; result: T };

/**
 * Counts the attempt, then runs `check` only if it is within the limit. When `giveBackWhen` says
 * so (a right password), the attempt is taken back, so only failures use up the limit; a check
 * that throws keeps its count.
 */
export async function limitedAttempt<T>(
  db: Db,
  limit: AttemptLimit,
  check: () => Promise<T>,
  giveBackWhen?: (result: T) => boolean,
): Promise<AttemptOutcome<T>> {
  const attempt = await countAttempt(db, limit);
  if (!attempt.allowed) return { limited: true, retryAfterSeconds: attempt.retryAfterSeconds };
  const result = await check();
  if (giveBackWhen?.(result)) await attempt.giveBack();
  return { limited: false, result };
}
