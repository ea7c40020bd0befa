// The worker's analytics roll-up: the raw batches the edge wrote are claimed (SKIP LOCKED) and
// added to their sites' hours once, then each touched UTC day is recomputed from its hours. Each
// round is one transaction, so a crash or a second worker never loses or doubles a batch, and a
// busy hour is never read again: the cost follows the new traffic, not the hour's total.
import type { AppContext } from "../context";
import { bucketStart } from "../../common/analytics";
import { lockDayRollUps, rollUpBatches, rollUpDay, type RolledHour } from "../db/repositories/analytics";

/**
 * Raw batches per transaction. With the embedded database a round runs on the serving thread;
 * 50 one-second batches of bench:edge's many case (1,000 entries each) take about 0.1 s.
 */
const BATCH = 50;

type RollUpContext = Pick<AppContext, "db" | "events">;

/** Rolls up everything waiting; returns the number of raw batches counted. */
export async function rollUpAnalytics(ctx: RollUpContext): Promise<number> {
  let total = 0;
  for (;;) {
    const { hours, claimed } = await ctx.db.transaction(async (tx) => {
      const rolled = await rollUpBatches(tx, BATCH);
      if (rolled.hours.length > 0) await lockDayRollUps(tx);
      for (const { site_id, day } of daysOf(rolled.hours)) await rollUpDay(tx, site_id, day);
      return rolled;
    });
    const notified = new Set<string>();
    for (const { site_id, user_id } of hours) {
      if (notified.has(site_id)) continue;
      notified.add(site_id);
      ctx.events.emit("analytics", { userId: user_id, siteId: site_id });
    }
    total += claimed;
    if (claimed < BATCH) return total;
  }
}

/** Each (site, UTC day) the hours fall in, once. */
function daysOf(hours: readonly RolledHour[]): Array<{ site_id: string; day: Date }> {
  const seen = new Map<string, { site_id: string; day: Date }>();
  for (const { site_id, hour } of hours) {
    const day = bucketStart(hour, "day");
    seen.set(`${site_id} ${day.getTime()}`, { site_id, day });
  }
  return [...seen.values()];
}
