// Analytics SQL: the edge's batched raw rows, the roll-ups the worker makes of them, and the
// figures the dashboard reads. Every bucket is a UTC hour or day (date_trunc(…, 'UTC'), so the
// session's time zone never matters). See the schema for what each table holds.
import { sql } from "drizzle-orm";
import { rowsOf, type Executor } from "../client";

export const RAW_RETENTION_DAYS = 7;
export const ROLLUP_RETENTION_MONTHS = 13;
/** Entries kept per dimension and bucket in the top tables. */
export const TOP_KEEP = 100;

export type HostKind = "subdomain" | "deployment" | "custom";
export const TOP_DIMENSIONS = ["page", "referrer", "status", "not_found", "country"] as const;
export type TopDimension = (typeof TOP_DIMENSIONS)[number];

/** One grouped raw row, as the edge's collector writes it. */
export interface AnalyticsEventRow {
  site_id: string;
  /** The minute, ISO. */
  at: string;
  host_kind: HostKind;
  path: string;
  status: number;
  page_view: boolean;
  bot: boolean;
  referrer_host: string | null;
  country: string | null;
  visitor: string | null;
  requests: number;
  bytes: number;
}

/**
 * Writes a batch and marks its hours for the roll-up, in one statement. Rows of sites that no
 * longer exist (purged since the request) are dropped rather than failing the batch.
 */
export async function insertAnalyticsEvents(db: Executor, rows: readonly AnalyticsEventRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.execute(sql`
    with incoming as (
      select r.* from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(
        site_id uuid, at timestamptz, host_kind text, path text, status integer, page_view boolean,
        bot boolean, referrer_host text, country text, visitor text, requests integer, bytes bigint)
      where exists (select 1 from sites s where s.id = r.site_id)
    ), inserted as (
      insert into analytics_events (site_id, at, host_kind, path, status, page_view, bot, referrer_host, country, visitor, requests, bytes)
      select site_id, at, host_kind, path, status, page_view, bot, referrer_host, country, visitor, requests, bytes from incoming
      returning site_id, at
    )
    insert into analytics_dirty (site_id, hour)
    select distinct site_id, date_trunc('hour', at, 'UTC') from inserted
    on conflict do nothing`);
}

export interface DirtyHour {
  site_id: string;
  /** The site's owner, for the dashboard's live notice. */
  user_id: string;
  hour: Date;
}

/**
 * Takes up to `limit` hours waiting for a roll-up, oldest first. Call inside the transaction that
 * rolls them up: if it fails, they are waiting again; rows another worker holds are skipped.
 */
export async function claimDirtyHours(tx: Executor, limit: number): Promise<DirtyHour[]> {
  const result = await tx.execute(sql`
    delete from analytics_dirty d using sites s
    where s.id = d.site_id and (d.site_id, d.hour) in (
      select site_id, hour from analytics_dirty order by hour limit ${limit} for update skip locked
    ) returning d.site_id, s.user_id, d.hour`);
  return rowsOf<{ site_id: string; user_id: string; hour: string | Date }>(result).map((r) => ({ site_id: r.site_id, user_id: r.user_id, hour: new Date(r.hour) }));
}

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** The top entries of each dimension among raw rows `ev` (a CTE), ranked by count. */
const RANKED_FROM_EV = sql`
  select dimension, key, count from (
    select dimension, key, count, row_number() over (partition by dimension order by count desc, key) as rank from (
      select 'page' as dimension, path as key, sum(requests)::integer as count from ev where page_view and not bot group by path
      union all
      select 'referrer', referrer_host, sum(requests)::integer from ev where page_view and not bot and referrer_host is not null group by referrer_host
      union all
      select 'status', status::text, sum(requests)::integer from ev group by status
      union all
      select 'not_found', path, sum(requests)::integer from ev where status = 404 and not bot group by path
      union all
      select 'country', country, sum(requests)::integer from ev where page_view and not bot and country is not null group by country
    ) as grouped
  ) as ranked
  where rank <= ${TOP_KEEP}`;

/**
 * Recomputes one site's hour from its raw rows: totals, distinct visitors and the top entries of
 * each dimension. Idempotent, so a roll-up that runs twice changes nothing.
 */
export async function rollUpHour(tx: Executor, siteId: string, hour: Date): Promise<void> {
  const start = hour.toISOString();
  const end = new Date(hour.getTime() + HOUR_MS).toISOString();
  await tx.execute(sql`
    insert into analytics_hourly (site_id, hour, views, visitors, requests, bot_requests, bandwidth)
    select ${siteId}::uuid, ${start}::timestamptz,
      coalesce(sum(requests) filter (where page_view and not bot), 0),
      count(distinct visitor),
      coalesce(sum(requests), 0),
      coalesce(sum(requests) filter (where bot), 0),
      coalesce(sum(bytes), 0)
    from analytics_events where site_id = ${siteId} and at >= ${start} and at < ${end}
    on conflict (site_id, hour) do update set views = excluded.views, visitors = excluded.visitors,
      requests = excluded.requests, bot_requests = excluded.bot_requests, bandwidth = excluded.bandwidth`);
  await tx.execute(sql`delete from analytics_hourly_top where site_id = ${siteId} and hour = ${start}`);
  await tx.execute(sql`
    with ev as (select * from analytics_events where site_id = ${siteId} and at >= ${start} and at < ${end})
    insert into analytics_hourly_top (site_id, hour, dimension, key, count)
    select ${siteId}::uuid, ${start}::timestamptz, dimension, key, count from (${RANKED_FROM_EV}) as top`);
}

/**
 * Recomputes one site's UTC day: sums from its hours, distinct visitors from the raw rows (a
 * visitor's hash is the same all day), and the top entries from the hours' top entries.
 */
export async function rollUpDay(tx: Executor, siteId: string, day: Date): Promise<void> {
  const start = day.toISOString();
  const end = new Date(day.getTime() + DAY_MS).toISOString();
  await tx.execute(sql`
    insert into analytics_daily (site_id, day, views, visitors, requests, bot_requests, bandwidth)
    select ${siteId}::uuid, ${start}::timestamptz,
      coalesce((select sum(views) from analytics_hourly h where h.site_id = ${siteId} and h.hour >= ${start} and h.hour < ${end}), 0),
      (select count(distinct visitor) from analytics_events e where e.site_id = ${siteId} and e.at >= ${start} and e.at < ${end}),
      coalesce((select sum(requests) from analytics_hourly h where h.site_id = ${siteId} and h.hour >= ${start} and h.hour < ${end}), 0),
      coalesce((select sum(bot_requests) from analytics_hourly h where h.site_id = ${siteId} and h.hour >= ${start} and h.hour < ${end}), 0),
      coalesce((select sum(bandwidth) from analytics_hourly h where h.site_id = ${siteId} and h.hour >= ${start} and h.hour < ${end}), 0)
    on conflict (site_id, day) do update set views = excluded.views, visitors = excluded.visitors,
      requests = excluded.requests, bot_requests = excluded.bot_requests, bandwidth = excluded.bandwidth`);
  await tx.execute(sql`delete from analytics_daily_top where site_id = ${siteId} and day = ${start}`);
  await tx.execute(sql`
    insert into analytics_daily_top (site_id, day, dimension, key, count)
    select ${siteId}::uuid, ${start}::timestamptz, dimension, key, count from (
      select dimension, key, count, row_number() over (partition by dimension order by count desc, key) as rank from (
        select dimension, key, sum(count)::integer as count from analytics_hourly_top
        where site_id = ${siteId} and hour >= ${start} and hour < ${end} group by dimension, key
      ) as summed
    ) as ranked
    where rank <= ${TOP_KEEP}`);
}

/** Raw rows past 7 days, roll-ups past 13 months, and salts of days that are over. */
export async function pruneAnalytics(db: Executor, now: Date): Promise<void> {
  const rawBefore = new Date(now.getTime() - RAW_RETENTION_DAYS * DAY_MS).toISOString();
  const rollupBefore = new Date(now);
  rollupBefore.setUTCMonth(rollupBefore.getUTCMonth() - ROLLUP_RETENTION_MONTHS);
  const before = rollupBefore.toISOString();
  const today = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS).toISOString();
  await db.execute(sql`delete from analytics_events where at < ${rawBefore}`);
  await db.execute(sql`delete from analytics_hourly where hour < ${before}`);
  await db.execute(sql`delete from analytics_hourly_top where hour < ${before}`);
  await db.execute(sql`delete from analytics_daily where day < ${before}`);
  await db.execute(sql`delete from analytics_daily_top where day < ${before}`);
  await db.execute(sql`delete from analytics_salts where day < ${today}`);
}

/** The salt of the UTC day starting at `day`: made by whichever process asks first. */
export async function saltForDay(db: Executor, day: Date, fresh: string): Promise<string> {
  await db.execute(sql`insert into analytics_salts (day, salt) values (${day.toISOString()}, ${fresh}) on conflict do nothing`);
  const result = await db.execute(sql`select salt from analytics_salts where day = ${day.toISOString()}`);
  return rowsOf<{ salt: string }>(result)[0]!.salt;
}

// ── Reading ─────────────────────────────────────────────────────────────────────

export interface Totals {
  views: number;
  visitors: number;
  bandwidth: number;
  bot_requests: number;
}

export interface SeriesPoint {
  t: Date;
  views: number;
  visitors: number;
  bandwidth: number;
}

type Unit = "hour" | "day";
const rollup = (unit: Unit) => (unit === "hour" ? sql`analytics_hourly` : sql`analytics_daily`);
const topTable = (unit: Unit) => (unit === "hour" ? sql`analytics_hourly_top` : sql`analytics_daily_top`);
const column = (unit: Unit) => (unit === "hour" ? sql`hour` : sql`day`);

/**
 * Sums over [start, end). Visitors: hourly buckets count distinct hashes in the raw rows of the
 * window (a visitor seen in several hours counts once per UTC day); daily buckets add up each
 * day's distinct visitors, since hashes change with the day.
 */
export async function totalsFor(db: Executor, siteId: string, unit: Unit, start: Date, end: Date): Promise<Totals> {
  const result = await db.execute(sql`
    select coalesce(sum(views), 0)::bigint as views, coalesce(sum(visitors), 0)::bigint as visitors,
      coalesce(sum(bandwidth), 0)::bigint as bandwidth, coalesce(sum(bot_requests), 0)::bigint as bot_requests
    from ${rollup(unit)} where site_id = ${siteId} and ${column(unit)} >= ${start.toISOString()} and ${column(unit)} < ${end.toISOString()}`);
  const row = rowsOf<Record<keyof Totals, string | number>>(result)[0]!;
  const totals = { views: Number(row.views), visitors: Number(row.visitors), bandwidth: Number(row.bandwidth), bot_requests: Number(row.bot_requests) };
  if (unit === "hour") {
    const distinct = await db.execute(sql`
      select count(*)::bigint as visitors from (
        select distinct date_trunc('day', at, 'UTC'), visitor from analytics_events
        where site_id = ${siteId} and at >= ${start.toISOString()} and at < ${end.toISOString()} and visitor is not null
      ) as seen`);
    totals.visitors = Number(rowsOf<{ visitors: string | number }>(distinct)[0]!.visitors);
  }
  return totals;
}

/** One point per bucket that has data, oldest first; the caller fills the gaps with zeros. */
export async function seriesFor(db: Executor, siteId: string, unit: Unit, start: Date, end: Date): Promise<SeriesPoint[]> {
  const result = await db.execute(sql`
    select ${column(unit)} as t, views, visitors, bandwidth from ${rollup(unit)}
    where site_id = ${siteId} and ${column(unit)} >= ${start.toISOString()} and ${column(unit)} < ${end.toISOString()}
    order by ${column(unit)}`);
  return rowsOf<{ t: string | Date; views: number; visitors: number; bandwidth: string | number }>(result).map((r) => ({
    t: new Date(r.t),
    views: Number(r.views),
    visitors: Number(r.visitors),
    bandwidth: Number(r.bandwidth),
  }));
}

/** The `limit` largest entries of each dimension over [start, end). */
export async function topFor(db: Executor, siteId: string, unit: Unit, start: Date, end: Date, limit: number): Promise<Record<TopDimension, Array<{ key: string; count: number }>>> {
  const result = await db.execute(sql`
    select dimension, key, count from (
      select dimension, key, count, row_number() over (partition by dimension order by count desc, key) as rank from (
        select dimension, key, sum(count)::bigint as count from ${topTable(unit)}
        where site_id = ${siteId} and ${column(unit)} >= ${start.toISOString()} and ${column(unit)} < ${end.toISOString()}
        group by dimension, key
      ) as summed
    ) as ranked
    where rank <= ${limit}
    order by dimension, count desc, key`);
  const top = Object.fromEntries(TOP_DIMENSIONS.map((d) => [d, [] as Array<{ key: string; count: number }>])) as Record<TopDimension, Array<{ key: string; count: number }>>;
  for (const row of rowsOf<{ dimension: TopDimension; key: string; count: string | number }>(result)) {
    top[row.dimension]?.push({ key: row.key, count: Number(row.count) });
  }
  return top;
}

/** Whether the site was ever counted (raw rows not yet rolled up included). */
export async function siteHasAnalytics(db: Executor, siteId: string): Promise<boolean> {
  const result = await db.execute(sql`
    select exists (select 1 from analytics_daily where site_id = ${siteId})
        or exists (select 1 from analytics_events where site_id = ${siteId}) as seen`);
  return Boolean(rowsOf<{ seen: boolean }>(result)[0]?.seen);
}

// Both per-user sums walk the user's sites and read each one's days through the primary key
// (site_id, day): a plain join let PostgreSQL scan the last 30 days of every site of the
// installation instead (bench:api with 10,000 sites: 74 ms against 5 ms).

/** Bytes sent for all the user's sites since `since` (daily roll-ups). */
export async function bandwidthOfUser(db: Executor, userId: string, since: Date): Promise<number> {
  const result = await db.execute(sql`
    select coalesce(sum(a.bandwidth), 0)::bigint as bytes from sites s
    cross join lateral (
      select sum(d.bandwidth) as bandwidth from analytics_daily d where d.site_id = s.id and d.day >= ${since.toISOString()}
    ) as a
    where s.user_id = ${userId}`);
  return Number(rowsOf<{ bytes: string | number }>(result)[0]?.bytes ?? 0);
}

/** Page views per site of the user since `since` (daily roll-ups); sites without any are absent. */
export async function viewsBySiteOfUser(db: Executor, userId: string, since: Date): Promise<Map<string, number>> {
  const result = await db.execute(sql`
    select s.id as site_id, a.views from sites s
    cross join lateral (
      select sum(d.views)::bigint as views from analytics_daily d where d.site_id = s.id and d.day >= ${since.toISOString()}
    ) as a
    where s.user_id = ${userId} and a.views is not null`);
  return new Map(rowsOf<{ site_id: string; views: string | number }>(result).map((r) => [r.site_id, Number(r.views)]));
}
