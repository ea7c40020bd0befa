// The operator's view of users: listing and searching them with their plan, storage, sites and
// status, and the writes only an admin makes (plan, ban, promotion, deleting a user's rows).
import { and, eq, isNull, sql, type SQL } from "drizzle-orm";
import type { Executor } from "../client";
import { rowsOf } from "../rows";
import { availableSubdomains, profiles, sessions, sites, users } from "../schema";
import { deleteResetTokensOfUser } from "./verifications";

export interface AdminUserRow {
  id: string;
  email: string;
  name: string;
  emailVerified: boolean;
  /** Null for a user without a profile row, who is on the server's default plan. */
  plan: string | null;
  isAdmin: boolean;
  bannedAt: Date | null;
  storageBytes: number;
  siteCount: number;
  createdAt: Date;
}

/**
 * One row per user. Storage is the quota's own measure (usage.ts, storageUsedByUser): the distinct
 * blobs of the user's working trees and kept deployments, deleted-but-not-purged sites included,
 * as the triggers keep it in users.storage_used. The site count is every site row the user still
 * has, including sites marked for deletion until the worker purges them, as the user's own
 * dashboard lists them and as storage counts them.
 */
const userColumns = sql`
  u.id, u.email, coalesce(nullif(btrim(p.full_name), ''), u.name) as name, u.email_verified,
  p.plan, coalesce(p.is_admin, false) as is_admin, p.banned_at, u.created_at,
  (select count(*)::int from sites s where s.user_id = u.id) as site_count,
  u.storage_used as storage_bytes`;

type RawRow = {
  id: string;
  email: string;
  name: string;
  email_verified: boolean;
  plan: string | null;
  is_admin: boolean;
  banned_at: Date | string | null;
  created_at: Date | string;
  site_count: number | string;
  storage_bytes: number | string;
};

function toRow(r: RawRow): AdminUserRow {
  return {
    id: r.id,
    email: r.email,
    name: r.name,
    emailVerified: r.email_verified,
    plan: r.plan,
    isAdmin: r.is_admin,
    bannedAt: r.banned_at === null ? null : new Date(r.banned_at),
    storageBytes: Number(r.storage_bytes),
    siteCount: Number(r.site_count),
    createdAt: new Date(r.created_at),
  };
}

/** `ilike` pattern for "contains", with the wildcards % and _ (and the escape \) taken literally. */
function containsPattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function searchCondition(search: string | undefined): SQL {
  if (!search) return sql`true`;
  const pattern = containsPattern(search);
  return sql`(u.email ilike ${pattern} or u.name ilike ${pattern} or p.full_name ilike ${pattern})`;
}

/** A page of users whose e-mail or name contains `search` (any case), newest first. */
export async function listAdminUsers(db: Executor, options: { search: string | undefined; limit: number; offset: number }): Promise<AdminUserRow[]> {
  const result = await db.execute(sql`
    select ${userColumns}
    from users u left join profiles p on p.id = u.id
    where ${searchCondition(options.search)}
    order by u.created_at desc, u.id desc
    limit ${options.limit} offset ${options.offset}`);
  return rowsOf<RawRow>(result).map(toRow);
}

/** How many users `listAdminUsers` pages through for this search. */
export async function countAdminUsers(db: Executor, search: string | undefined): Promise<number> {
  const result = await db.execute(sql`
    select count(*)::int as n from users u left join profiles p on p.id = u.id
    where ${searchCondition(search)}`);
  return Number(rowsOf<{ n: number | string }>(result)[0]?.n ?? 0);
}

export async function getAdminUserById(db: Executor, userId: string): Promise<AdminUserRow | undefined> {
  const result = await db.execute(sql`
    select ${userColumns} from users u left join profiles p on p.id = u.id where u.id = ${userId}`);
  const row = rowsOf<RawRow>(result)[0];
  return row ? toRow(row) : undefined;
}

/** E-mails are compared without case: better-auth stores them lower-cased, people type them any way. */
export async function getUserIdByEmail(db: Executor, email: string): Promise<string | undefined> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`);
  return row?.id;
}

/**
 * Sets what the operator controls on the user's profile. Banning keeps the time of the first ban
 * when the user is banned already. False when the user has no profile.
 */
export async function updateAdminFields(
  db: Executor,
  userId: string,
  values: { plan?: string; banned?: boolean; isAdmin?: boolean },
  now: Date,
): Promise<boolean> {
  const rows = await db
    .update(profiles)
    .set({
      ...(values.plan !== undefined ? { plan: values.plan } : {}),
      ...(values.isAdmin !== undefined ? { is_admin: values.isAdmin } : {}),
      ...(values.banned === true ? { banned_at: sql`coalesce(${profiles.banned_at}, ${now.toISOString()}::timestamptz)` } : {}),
      ...(values.banned === false ? { banned_at: null } : {}),
      updated_at: now,
    })
    .where(eq(profiles.id, userId))
    .returning({ id: profiles.id });
  return rows.length === 1;
}

/** Signs the user out everywhere at once. */
export async function deleteSessionsOfUser(db: Executor, userId: string): Promise<number> {
  const rows = await db.delete(sessions).where(eq(sessions.userId, userId)).returning({ id: sessions.id });
  return rows.length;
}

/** Every site row of the user (deleted ones too), for the edge to forget their hosts. */
export async function subdomainsOfUser(db: Executor, userId: string): Promise<{ id: string; subdomain: string }[]> {
  return db.select({ id: sites.id, subdomain: sites.subdomain }).from(sites).where(eq(sites.user_id, userId));
}

/** The user's sites, locked for the rest of the transaction: deleting the user purges them. */
export async function lockSitesOfUser(tx: Executor, userId: string): Promise<(typeof sites.$inferSelect)[]> {
  return tx.select().from(sites).where(eq(sites.user_id, userId)).for("update");
}

/** A name the user reserved in the wizard but never used goes back to the pool. */
export async function releaseReservationsOfUser(tx: Executor, userId: string): Promise<void> {
  await tx
    .update(availableSubdomains)
    .set({ is_assigned: false, reserved_by: null, reserved_at: null })
    .where(and(eq(availableSubdomains.reserved_by, userId), isNull(availableSubdomains.assigned_site_id)));
}

/** The avatar's blob, if the user has one. */
export async function getAvatarBlobOfUser(db: Executor, userId: string): Promise<string | null> {
  const [row] = await db.select({ sha: profiles.avatar_sha256 }).from(profiles).where(eq(profiles.id, userId));
  return row?.sha ?? null;
}

/**
 * Deletes the user. Their profile, sessions, accounts and two-factor secrets go with the row
 * (foreign keys cascade); their pending password-reset tokens are removed here.
 */
export async function deleteUserRow(tx: Executor, userId: string): Promise<void> {
  await deleteResetTokensOfUser(tx, userId);
  await tx.delete(users).where(eq(users.id, userId));
}

/**
 * The ids of every admin: the accounts of `configEmails` (BERTH_ADMIN_EMAILS, lower-cased) and the
 * promoted ones, banned admins left out (they cannot sign in to act on anything).
 */
export async function listAdminUserIds(db: Executor, configEmails: readonly string[]): Promise<string[]> {
  const byConfig =
    configEmails.length > 0
      ? sql`lower(u.email) in (${sql.join(
          configEmails.map((e) => sql`${e}`),
          sql`, `,
        )})`
      : sql`false`;
  const result = await db.execute(sql`
    select u.id from users u left join profiles p on p.id = u.id
    where (${byConfig} or coalesce(p.is_admin, false)) and p.banned_at is null
    order by u.created_at`);
  return rowsOf<{ id: string }>(result).map((r) => r.id);
}
