// The notification feed's rows: one per notice, owned by one user. Every read and write but the
// insert and the worker's prune names the owner, so another user's notice is never seen or touched.
import { and, count, desc, eq, isNull, lt, sql } from "drizzle-orm";
import type { Executor } from "../client";
import { notifications } from "../schema";

export type NotificationRow = typeof notifications.$inferSelect;
export type NewNotificationRow = typeof notifications.$inferInsert;

export async function insertNotification(db: Executor, row: NewNotificationRow): Promise<NotificationRow> {
  const [inserted] = await db.insert(notifications).values(row).returning();
  return inserted!;
}

/** A row with its place in the list: created_at to the microsecond, which a Date would cut to milliseconds. */
export type ListedNotification = NotificationRow & { cursor: string };

/**
 * The user's notices, newest first, `limit` of them after the one `before` names (created_at,
 * then id, so notices of the same microsecond keep one order).
 */
export async function listNotificationsForUser(
  db: Executor,
  userId: string,
  page: { before?: { createdAt: string; id: string }; limit: number },
): Promise<ListedNotification[]> {
  const cursor = sql<string>`to_char(${notifications.created_at} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || '_' || ${notifications.id}`;
  const before = page.before
    ? sql`(${notifications.created_at}, ${notifications.id}) < (${page.before.createdAt}::timestamptz, ${page.before.id}::uuid)`
    : undefined;
  return db
    .select({
      id: notifications.id,
      user_id: notifications.user_id,
      kind: notifications.kind,
      title: notifications.title,
      body: notifications.body,
      link: notifications.link,
      site_id: notifications.site_id,
      created_at: notifications.created_at,
      read_at: notifications.read_at,
      cursor,
    })
    .from(notifications)
    .where(and(eq(notifications.user_id, userId), before))
    .orderBy(desc(notifications.created_at), desc(notifications.id))
    .limit(page.limit);
}

export async function countUnreadNotifications(db: Executor, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.user_id, userId), isNull(notifications.read_at)));
  return row?.n ?? 0;
}

/** Marks one of the user's notices read (a notice already read keeps its time); undefined when it is not theirs. */
export async function markNotificationReadForUser(db: Executor, userId: string, id: string, at: Date): Promise<NotificationRow | undefined> {
  const [row] = await db
    .update(notifications)
    .set({ read_at: sql`coalesce(${notifications.read_at}, ${at.toISOString()}::timestamptz)` })
    .where(and(eq(notifications.id, id), eq(notifications.user_id, userId)))
    .returning();
  return row;
}

/** Marks every unread notice of the user read; resolves to how many there were. */
export async function markAllNotificationsReadForUser(db: Executor, userId: string, at: Date): Promise<number> {
  const rows = await db
    .update(notifications)
    .set({ read_at: at })
    .where(and(eq(notifications.user_id, userId), isNull(notifications.read_at)))
    .returning({ id: notifications.id });
  return rows.length;
}

/** The worker's prune: notices created before `cutoff`, whoever's. */
export async function deleteNotificationsCreatedBefore(db: Executor, cutoff: Date): Promise<number> {
  const rows = await db.delete(notifications).where(lt(notifications.created_at, cutoff)).returning({ id: notifications.id });
  return rows.length;
}
