// The bell's feed: reading a user's notices a page at a time and marking them read. Every call
// names the owner, so another user's notice is the 404 of a missing one.
import type { NotificationListQuery } from "../../../common/notifications";
import type { AppContext } from "../../context";
import {
  countUnreadNotifications,
  listNotificationsForUser,
  markAllNotificationsReadForUser,
  markNotificationReadForUser,
  type ListedNotification,
  type NotificationRow,
} from "../../db/repositories/notifications";
import { AppError } from "../../errors";
import { UUID } from "../siteAccess";

export interface NotificationPage {
  notifications: ListedNotification[];
  nextCursor: string | null;
  unreadCount: number;
}

export async function listNotifications(ctx: Pick<AppContext, "db">, userId: string, query: NotificationListQuery): Promise<NotificationPage> {
  const before = query.before === undefined ? undefined : parseCursor(query.before);
  // One more than asked tells whether an older page exists.
  const rows = await listNotificationsForUser(ctx.db, userId, { before, limit: query.limit + 1 });
  const page = rows.slice(0, query.limit);
  return {
    notifications: page,
    nextCursor: rows.length > query.limit ? page[page.length - 1]!.cursor : null,
    unreadCount: await countUnreadNotifications(ctx.db, userId),
  };
}

export function unreadNotificationCount(ctx: Pick<AppContext, "db">, userId: string): Promise<number> {
  return countUnreadNotifications(ctx.db, userId);
}

const notFound = () => new AppError("notification_not_found", 404, "Notification not found");

export async function markNotificationRead(ctx: Pick<AppContext, "db">, userId: string, id: string, now = new Date()): Promise<NotificationRow> {
  if (!UUID.test(id)) throw notFound();
  const row = await markNotificationReadForUser(ctx.db, userId, id, now);
  if (!row) throw notFound();
  return row;
}

export function markAllNotificationsRead(ctx: Pick<AppContext, "db">, userId: string, now = new Date()): Promise<number> {
  return markAllNotificationsReadForUser(ctx.db, userId, now);
}

/** "2026-11-27T21:03:38.123456Z_<uuid>", as the list hands it out (the query's regex checked the form). */
function parseCursor(cursor: string): { createdAt: string; id: string } {
  const split = cursor.lastIndexOf("_");
  return { createdAt: cursor.slice(0, split), id: cursor.slice(split + 1) };
}
