import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Db } from "../client";
import { rowsOf } from "../rows";

/** `max` requests per `window` seconds. */
export interface RateLimitRule {
  window: number;
  max: number;
}

export interface RateLimitCount {
  allowed: boolean;
  retryAfterSeconds: number;
  /** When the counted request's window began: a give-back applies to that window only. */
  windowStartedAt: number;
}

/**
 * Counts one request against `key` in a fixed window, atomically, in the same table better-auth
 * uses (keys here start with "berth:", so they never meet better-auth's). Returns whether the
 * request is within `max`, and when the window ends. Refused requests count too, so a client that
 * keeps trying gains nothing from it.
 */
export async function consumeRateLimit(db: Db, key: string, rule: RateLimitRule, now = Date.now()): Promise<RateLimitCount> {
  const windowStart = now - rule.window * 1000;
  const result = await db.execute(sql`
    insert into rate_limits (id, key, count, last_request)
    values (${randomUUID()}, ${key}, 1, ${now})
    on conflict (key) do update set
      count = case when rate_limits.last_request <= ${windowStart} then 1 else rate_limits.count + 1 end,
      last_request = case when rate_limits.last_request <= ${windowStart} then ${now} else rate_limits.last_request end
    returning count, last_request`);
  const row = rowsOf<{ count: number; last_request: string | number }>(result)[0]!;
  const started = Number(row.last_request);
  return {
    allowed: Number(row.count) <= rule.max,
    retryAfterSeconds: Math.max(1, Math.ceil((started + rule.window * 1000 - now) / 1000)),
    windowStartedAt: started,
  };
}

/**
 * Takes one request back from `key`'s count, if its window is still the one that began at
 * `windowStartedAt` (a later window has its own count, which this request never added to).
 */
export async function giveBackRateLimit(db: Db, key: string, windowStartedAt: number): Promise<void> {
  await db.execute(sql`
    update rate_limits set count = count - 1
    where key = ${key} and last_request = ${windowStartedAt} and count > 0`);
}

/**
 * Counters older than any window (the longest is an hour): without this, every address that ever
 * tried a password or signed in would keep a row for ever. Better-auth's counters share the table.
 */
export const RATE_LIMIT_KEEP_MS = 24 * 60 * 60 * 1000;

export async function pruneRateLimits(db: Db, now = Date.now()): Promise<number> {
  const result = await db.execute(sql`delete from rate_limits where last_request < ${now - RATE_LIMIT_KEEP_MS} returning key`);
  return rowsOf(result).length;
}
