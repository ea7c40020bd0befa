import { and, eq, isNotNull, sql } from "drizzle-orm";
import type { Db, Executor } from "../client";
import { rowsOf } from "../rows";
import { profiles, sites, users } from "../schema";
import type { NotificationPreferences } from "../../../common/account";
import type { NotificationChannelOverrides } from "../../../common/notifications";

export type Profile = typeof profiles.$inferSelect;

export async function createProfile(db: Db, values: { id: string; full_name: string | null; plan: string }): Promise<void> {
  await db.insert(profiles).values(values).onConflictDoNothing();
}

export async function getProfileForUser(db: Executor, userId: string): Promise<Profile | undefined> {
  const [row] = await db.select().from(profiles).where(eq(profiles.id, userId));
  return row;
}

/** The user's plan id; undefined without a profile row (the server's default plan applies). */
export async function getPlanIdForUser(db: Executor, userId: string): Promise<string | undefined> {
  const [row] = await db.select({ plan: profiles.plan }).from(profiles).where(eq(profiles.id, userId));
  return row?.plan;
}

/** Accounts on a plan outside `known`, by plan: how many, and the first few addresses (oldest first). */
export interface AccountsOnPlan {
  plan: string;
  count: number;
  emails: string[];
}

export async function accountsOnPlansOutside(db: Executor, known: readonly string[], emailsPerPlan: number): Promise<AccountsOnPlan[]> {
  const result = await db.execute(sql`
    select p.plan, count(*)::int as count,
           (array_agg(u.email order by u.created_at, u.id))[1:${emailsPerPlan}] as emails
      from ${profiles} p
      join ${users} u on u.id = p.id
     where p.plan not in (${sql.join(
       known.map((id) => sql`${id}`),
       sql`, `,
     )})
     group by p.plan
     order by p.plan`);
  return rowsOf<{ plan: string; count: number; emails: string[] }>(result).map((row) => ({ ...row, count: Number(row.count) }));
}

/** Whether an admin has suspended the user (profiles.banned_at is set). */
export async function isUserBanned(db: Executor, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: profiles.id })
    .from(profiles)
    .where(and(eq(profiles.id, userId), isNotNull(profiles.banned_at)));
  return row !== undefined;
}

/** Saves the profile form; null clears Company or Website. */
export async function updateProfileDetails(
  tx: Executor,
  userId: string,
  values: { full_name: string; company: string | null; website: string | null },
): Promise<void> {
  await tx
    .update(profiles)
    .set({ ...values, updated_at: sql`now()` })
    .where(eq(profiles.id, userId));
}

/** better-auth's users.name, which follows the profile's full name (the session's user name). */
export async function setUserName(tx: Executor, userId: string, name: string): Promise<void> {
  await tx
    .update(users)
    .set({ name, updatedAt: sql`now()` })
    .where(eq(users.id, userId));
}

/** The profile row, locked for the rest of the transaction (changing the picture). */
export async function lockProfile(tx: Executor, userId: string): Promise<Profile | undefined> {
  const [row] = await tx.select().from(profiles).where(eq(profiles.id, userId)).for("update");
  return row;
}

export interface AvatarRecord {
  sha256: string;
  type: string;
  url: string;
}

/** Records the picture, or clears it with null. */
export async function setAvatar(tx: Executor, userId: string, avatar: AvatarRecord | null): Promise<void> {
  await tx
    .update(profiles)
    .set({
      avatar_sha256: avatar?.sha256 ?? null,
      avatar_type: avatar?.type ?? null,
      avatar_url: avatar?.url ?? null,
      updated_at: sql`now()`,
    })
    .where(eq(profiles.id, userId));
}

export async function getNotificationPreferences(db: Executor, userId: string): Promise<NotificationPreferences | undefined> {
  const [row] = await db
    .select({
      deployFailed: profiles.notify_deploy_failed,
      domainActive: profiles.notify_domain_active,
      weeklySummary: profiles.notify_weekly_summary,
    })
    .from(profiles)
    .where(eq(profiles.id, userId));
  return row;
}

export async function setNotificationPreferences(db: Executor, userId: string, preferences: NotificationPreferences): Promise<void> {
  await db
    .update(profiles)
    .set({
      notify_deploy_failed: preferences.deployFailed,
      notify_domain_active: preferences.domainActive,
      notify_weekly_summary: preferences.weeklySummary,
      updated_at: sql`now()`,
    })
    .where(eq(profiles.id, userId));
}

/** Who hears about a site: its owner's address and name, their e-mail preferences, and the site's name. */
export interface SiteNoticeRecipient {
  email: string;
  name: string;
  siteName: string;
  notifyDeployFailed: boolean;
  notifyDomainActive: boolean;
  banned: boolean;
}

export async function getSiteNoticeRecipient(db: Executor, siteId: string): Promise<SiteNoticeRecipient | undefined> {
  const result = await db.execute(sql`
    select u.email, coalesce(nullif(trim(p.full_name), ''), u.name) as name, s.name as site_name,
           coalesce(p.notify_deploy_failed, true) as notify_deploy_failed,
           coalesce(p.notify_domain_active, true) as notify_domain_active,
           p.banned_at is not null as banned
      from ${sites} s
      join ${users} u on u.id = s.user_id
      left join ${profiles} p on p.id = s.user_id
     where s.id = ${siteId}`);
  const row = rowsOf<{
    email: string;
    name: string;
    site_name: string;
    notify_deploy_failed: boolean;
    notify_domain_active: boolean;
    banned: boolean;
  }>(result)[0];
  return row
    ? {
        email: row.email,
        name: row.name,
        siteName: row.site_name,
        notifyDeployFailed: row.notify_deploy_failed,
        notifyDomainActive: row.notify_domain_active,
        banned: row.banned,
      }
    : undefined;
}

/** What decides where a user's notices go: the stored overrides and the two e-mail columns that predate them. */
export interface NotificationChannelState {
  overrides: NotificationChannelOverrides;
  deployFailedEmail: boolean;
  domainActiveEmail: boolean;
}

export async function getNotificationChannelState(db: Executor, userId: string): Promise<NotificationChannelState | undefined> {
  const [row] = await db
    .select({
      overrides: profiles.notification_channels,
      deployFailedEmail: profiles.notify_deploy_failed,
      domainActiveEmail: profiles.notify_domain_active,
    })
    .from(profiles)
    .where(eq(profiles.id, userId));
  return row;
}

export async function setNotificationChannelState(db: Executor, userId: string, state: NotificationChannelState): Promise<void> {
  await db
    .update(profiles)
    .set({
      notification_channels: state.overrides,
      notify_deploy_failed: state.deployFailedEmail,
      notify_domain_active: state.domainActiveEmail,
      updated_at: sql`now()`,
    })
    .where(eq(profiles.id, userId));
}

/** Whom an account's notice mail goes to: the address, the name it greets, and whether they are banned. */
export interface AccountNoticeRecipient {
  email: string;
  name: string;
  banned: boolean;
}

export async function getAccountNoticeRecipient(db: Executor, userId: string): Promise<AccountNoticeRecipient | undefined> {
  const result = await db.execute(sql`
    select u.email, coalesce(nullif(trim(p.full_name), ''), u.name) as name, p.banned_at is not null as banned
      from ${users} u
      left join ${profiles} p on p.id = u.id
     where u.id = ${userId}`);
  return rowsOf<AccountNoticeRecipient>(result)[0];
}

/** The storage threshold the account was last told about (0, 80 or 100). */
export async function getStorageNoticeLevel(db: Executor, userId: string): Promise<number> {
  const [row] = await db.select({ level: profiles.storage_notice_level }).from(profiles).where(eq(profiles.id, userId));
  return row?.level ?? 0;
}

/**
 * Moves the account's notified threshold to `level`, under the row's lock; resolves to the level
 * it replaced, or undefined when it was `level` already (another upload's check got there first).
 */
export async function moveStorageNoticeLevel(db: Executor, userId: string, level: number): Promise<number | undefined> {
  const result = await db.execute(sql`
    update ${profiles} p set storage_notice_level = ${level}
      from (select id, storage_notice_level as previous from ${profiles} where id = ${userId} for update) o
     where p.id = o.id and o.previous <> ${level}
    returning o.previous`);
  const row = rowsOf<{ previous: number }>(result)[0];
  return row === undefined ? undefined : Number(row.previous);
}
