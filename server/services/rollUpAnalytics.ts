// The worker's analytics roll-up: every hour the edge wrote raw rows for is recomputed from them
// (hourly totals and top entries), then its UTC day. Each batch is one transaction that also
// takes the hours' markers (analytics_dirty), so a crash or a second worker never loses or
// doubles an hour: recomputing is idempotent, and the markers are claimed with SKIP LOCKED.
import type { AppContext } from "../context";
import { bucketStart } from "../../common/analytics";
import { claimDirtyHours, rollUpDay, rollUpHour, type DirtyHour } from "../db/repositories/analytics";

/** Hours rolled up per transaction. */
const BATCH = 200;

type RollUpContext = Pick<AppContext, "db" | "events">;

/** Rolls up everything waiting; returns the number of site-hours recomputed. */
export async function rollUpAnalytics(ctx: RollUpContext): Promise<number> {
  let total = 0;
  for (;;) {
    const hours = await ctx.db.transaction(async (tx) => {
      const claimed = await claimDirtyHours(tx, BATCH);
      for (const { site_id, hour } of claimed) await rollUpHour(tx, site_id, hour);
      for (const { site_id, day } of daysOf(claimed)) await rollUpDay(tx, site_id, day);
      return claimed;
    });
    const notified = new Set<string>();
    for (const { site_id, user_id } of hours) {
      if (notified.has(site_id)) continue;
      notified.add(site_id);
      ctx.events.emit("analytics", { userId: user_id, siteId: site_id });
    }
    total += hours.length;
    if (hours.length < BATCH) return total;
  }
}

/** Each (site, UTC day) the hours fall in, once. */
function daysOf(hours: readonly DirtyHour[]): Array<{ site_id: string; day: Date }> {
  const seen = new Map<string, { site_id: string; day: Date }>();
  for (const { site_id, hour } of hours) {
    const day = bucketStart(hour, "day");
    seen.set(`${site_id} ${day.getTime()}`, { site_id, day });
  }
  return [...seen.values()];
}
