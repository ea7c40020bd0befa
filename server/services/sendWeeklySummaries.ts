// The weekly summary mail: on Mondays, each user who asked for it (Settings, Notifications) gets
// their sites' page views and visitors of the ISO week that just ended (Monday 00:00 UTC to the
// next Monday), with the change against the week before. The worker calls this every minute.
//
// Once per user and week. For each user the figures are read and the message built first; then
// the weekly_summaries row is inserted (ON CONFLICT DO NOTHING, committed on its own) and only
// the caller whose insert made the row sends. A second worker racing for the same user waits for
// that row and gets nothing back, so it never sends. A failed send deletes the row again, and a
// later tick of the same Monday retries. No transaction stays open over the send (on PGlite one
// would hold up every other query of the process for as long as the mail server takes).
//
// A crash between the insert and the send leaves the row, and that user's summary for the week is
// not sent. Across a crash no order gives exactly once: recording after sending would send twice
// when the crash falls after the send. For a weekly digest a missed mail is the lesser harm, and
// the window is only the send itself: nothing else happens between the claim and the mail.
import type { AppContext } from "../context";
import {
  claimWeeklySummary,
  listSiteWeeksOfUser,
  listWeeklySummaryRecipients,
  releaseWeeklySummary,
  type SiteWeek,
  type WeeklySummaryRecipient,
} from "../db/repositories/weeklySummaries";
import { weeklySummaryMessage } from "../mail/templates";

type SummaryContext = Pick<AppContext, "db" | "mailer" | "env" | "log">;

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;

/**
 * Summaries go out from Monday 01:00 UTC, not 00:00: the edge's last visits of Sunday reach the
 * daily roll-ups within seconds, and an hour covers a worker that was catching up.
 */
export const SUMMARY_SEND_FROM_MS = HOUR_MS;
/**
 * ...and until Tuesday 00:00 UTC. A summary arrives on the Monday it describes the week before;
 * someone who turns it on on a Thursday waits for the next Monday instead of getting an old week.
 */
export const SUMMARY_SEND_UNTIL_MS = DAY_MS;

/** Users listed per query. */
const BATCH = 100;

export interface SummaryWeek {
  /** Monday 00:00 UTC. */
  start: Date;
  /** The next Monday 00:00 UTC, exclusive. */
  end: Date;
}

/** The last ISO week that ended at or before `now`; an instant on a Monday 00:00 ends the week before it. */
export function lastCompleteWeek(now: Date): SummaryWeek {
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  // getUTCDay: Sunday 0 … Saturday 6; days since Monday is (day + 6) % 7.
  const monday = today - ((new Date(today).getUTCDay() + 6) % 7) * DAY_MS;
  return { start: new Date(monday - WEEK_MS), end: new Date(monday) };
}

/** The week whose summaries are due at `now`, or null outside the sending window. */
export function dueSummaryWeek(now: Date): SummaryWeek | null {
  const week = lastCompleteWeek(now);
  const since = now.getTime() - week.end.getTime();
  return since >= SUMMARY_SEND_FROM_MS && since < SUMMARY_SEND_UNTIL_MS ? week : null;
}

/** Sites by views, most first; ties by name, so the order is stable. */
export function sortSiteWeeks(sites: readonly SiteWeek[]): SiteWeek[] {
  return [...sites].sort((a, b) => b.views - a.views || a.name.localeCompare(b.name) || a.siteId.localeCompare(b.siteId));
}

/**
 * Sends the summaries due at `now`; resolves to how many went out. Outside the window it does
 * nothing at all; inside it, once everyone has theirs, one query. A mail failure stops the run
 * (the mail server is likely down for the rest too) and the next tick tries again.
 */
export async function sendWeeklySummaries(ctx: SummaryContext, now = new Date()): Promise<number> {
  const week = dueSummaryWeek(now);
  if (!week) return 0;
  let sent = 0;
  for (;;) {
    const recipients = await listWeeklySummaryRecipients(ctx.db, week.start, week.end, BATCH);
    for (const recipient of recipients) {
      const outcome = await sendOne(ctx, recipient, week, now);
      if (outcome === "failed") return sent;
      if (outcome === "sent") sent += 1;
    }
    if (recipients.length < BATCH) return sent;
  }
}

async function sendOne(ctx: SummaryContext, recipient: WeeklySummaryRecipient, week: SummaryWeek, now: Date): Promise<"sent" | "skipped" | "failed"> {
  const sites = sortSiteWeeks(await listSiteWeeksOfUser(ctx.db, recipient.userId, week.start, week.end));
  // The last site was deleted since the list was read.
  if (sites.length === 0) return "skipped";
  const message = weeklySummaryMessage(recipient.email, {
    name: recipient.name,
    weekStart: week.start,
    weekEnd: week.end,
    sites: sites.map((site) => ({ ...site, link: `${ctx.env.appUrl}/dashboard/sites/${site.siteId}?tab=analytics` })),
    dashboardLink: `${ctx.env.appUrl}/dashboard/sites`,
  });
  // Another worker has it, or the user turned the summary off (or was banned) since the list.
  if (!(await claimWeeklySummary(ctx.db, recipient.userId, week.start, now))) return "skipped";
  try {
    await ctx.mailer.send(message);
    return "sent";
  } catch (error) {
    ctx.log.error(
      { err: error, userId: recipient.userId, week: week.start.toISOString() },
      "could not send the weekly summary; trying again at the next tick",
    );
    await releaseWeeklySummary(ctx.db, recipient.userId, week.start);
    return "failed";
  }
}
