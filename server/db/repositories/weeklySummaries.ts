// The weekly summary mail: who is due one, the claim that makes it go out once per user and week
// (weekly_summaries' primary key), and the week's figures per site from the daily roll-ups.
import { sql } from "drizzle-orm";
import type { Executor } from "../client";
import { rowsOf } from "../rows";

export interface WeeklySummaryRecipient {
  userId: string;
  email: string;
  name: string;
}

/**
 * Users who asked for the summary, are not banned, had a site (not deleted since) before the week
 * ended, and have no claim for the week yet. The worker asks this every minute of the sending
 * window, so when everyone has theirs it is the only query a tick makes.
 */
export async function listWeeklySummaryRecipients(db: Executor, week: Date, weekEnd: Date, limit: number): Promise<WeeklySummaryRecipient[]> {
  const result = await db.execute(sql`
    select u.id as user_id, u.email, coalesce(nullif(trim(p.full_name), ''), u.name) as name
      from profiles p join users u on u.id = p.id
     where p.notify_weekly_summary and p.banned_at is null
       and exists (select 1 from sites s where s.user_id = p.id and not s.is_deleted and s.created_at < ${weekEnd.toISOString()})
       and not exists (select 1 from weekly_summaries w where w.user_id = p.id and w.week = ${week.toISOString()})
     order by u.id
     limit ${limit}`);
  return rowsOf<{ user_id: string; email: string; name: string }>(result).map((r) => ({ userId: r.user_id, email: r.email, name: r.name }));
}

/**
 * Takes the user's summary for the week: true for exactly one caller, however many workers race
 * (the insert of a second waits for the first's row and then does nothing). The preference and
 * the ban are checked again in the same statement, so a user who turned the summary off after
 * being listed is not claimed.
 */
export async function claimWeeklySummary(db: Executor, userId: string, week: Date, now: Date): Promise<boolean> {
  const result = await db.execute(sql`
    insert into weekly_summaries (user_id, week, sent_at)
    select p.id, ${week.toISOString()}, ${now.toISOString()} from profiles p
     where p.id = ${userId} and p.notify_weekly_summary and p.banned_at is null
    on conflict (user_id, week) do nothing
    returning user_id`);
  return rowsOf(result).length === 1;
}

/** Gives the claim back after the mail could not be sent, so a later tick tries again. */
export async function releaseWeeklySummary(db: Executor, userId: string, week: Date): Promise<void> {
  await db.execute(sql`delete from weekly_summaries where user_id = ${userId} and week = ${week.toISOString()}`);
}

export interface SiteWeek {
  siteId: string;
  name: string;
  views: number;
  visitors: number;
  previousViews: number;
  previousVisitors: number;
}

/**
 * Each of the user's sites that existed before `weekEnd` and is not deleted, with its page views
 * and visitors over [weekStart, weekEnd) and over the week before (daily roll-ups; a visitor
 * counts once per UTC day, as in the dashboard's 7-day range). Sites without visits have zeros.
 */
export async function listSiteWeeksOfUser(db: Executor, userId: string, weekStart: Date, weekEnd: Date): Promise<SiteWeek[]> {
  const previousStart = new Date(weekStart.getTime() - (weekEnd.getTime() - weekStart.getTime())).toISOString();
  const start = weekStart.toISOString();
  const end = weekEnd.toISOString();
  const result = await db.execute(sql`
    select s.id as site_id, s.name,
      coalesce(sum(a.views) filter (where a.day >= ${start}), 0)::bigint as views,
      coalesce(sum(a.visitors) filter (where a.day >= ${start}), 0)::bigint as visitors,
      coalesce(sum(a.views) filter (where a.day < ${start}), 0)::bigint as previous_views,
      coalesce(sum(a.visitors) filter (where a.day < ${start}), 0)::bigint as previous_visitors
      from sites s
      left join analytics_daily a on a.site_id = s.id and a.day >= ${previousStart} and a.day < ${end}
     where s.user_id = ${userId} and not s.is_deleted and s.created_at < ${end}
     group by s.id, s.name`);
  return rowsOf<{
    site_id: string;
    name: string;
    views: string | number;
    visitors: string | number;
    previous_views: string | number;
    previous_visitors: string | number;
  }>(result).map((r) => ({
    siteId: r.site_id,
    name: r.name,
    views: Number(r.views),
    visitors: Number(r.visitors),
    previousViews: Number(r.previous_views),
    previousVisitors: Number(r.previous_visitors),
  }));
}
