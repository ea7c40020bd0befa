// Contact-form and support messages: stored before they are mailed, then read, marked handled and
// answered by admins (the inbox on the admin page).
import { and, count, desc, eq, isNull, sql } from "drizzle-orm";
import type { ContactMessageKind } from "../../../common/support";
import type { Db, Executor } from "../client";
import { contactMessages, users } from "../schema";

export type ContactMessage = typeof contactMessages.$inferSelect;

export async function insertContactMessage(
  db: Db,
  values: { name: string; email: string; subject: string; message: string; kind?: ContactMessageKind; user_id?: string | null },
): Promise<ContactMessage> {
  const [row] = await db.insert(contactMessages).values(values).returning();
  return row!;
}

export async function markContactMessageDelivered(db: Db, id: string): Promise<void> {
  await db.update(contactMessages).set({ delivered_at: new Date(), delivery_error: null }).where(eq(contactMessages.id, id));
}

export async function markContactMessageFailed(db: Db, id: string, error: string): Promise<void> {
  await db.update(contactMessages).set({ delivery_error: error }).where(eq(contactMessages.id, id));
}

/** A message with the e-mail of the admin who replied, if one did. */
export type InboxMessage = ContactMessage & { replied_by_email: string | null };

const inboxColumns = { message: contactMessages, replied_by_email: users.email };

function toInbox(row: { message: ContactMessage; replied_by_email: string | null }): InboxMessage {
  return { ...row.message, replied_by_email: row.replied_by_email };
}

/** A page of every message, newest first. */
export async function listInboxMessages(db: Executor, options: { limit: number; offset: number }): Promise<InboxMessage[]> {
  const rows = await db
    .select(inboxColumns)
    .from(contactMessages)
    .leftJoin(users, eq(users.id, contactMessages.replied_by))
    .orderBy(desc(contactMessages.created_at), desc(contactMessages.id))
    .limit(options.limit)
    .offset(options.offset);
  return rows.map(toInbox);
}

export async function getInboxMessage(db: Executor, id: string): Promise<InboxMessage | undefined> {
  const [row] = await db
    .select(inboxColumns)
    .from(contactMessages)
    .leftJoin(users, eq(users.id, contactMessages.replied_by))
    .where(eq(contactMessages.id, id));
  return row ? toInbox(row) : undefined;
}

/** Every message, and those no admin has handled yet. */
export async function countInboxMessages(db: Executor): Promise<{ total: number; unhandled: number }> {
  const [row] = await db
    .select({ total: count(), unhandled: sql<number>`count(*) filter (where ${contactMessages.handled_at} is null)`.mapWith(Number) })
    .from(contactMessages);
  return { total: row?.total ?? 0, unhandled: row?.unhandled ?? 0 };
}

/** Marks the message handled (keeping the first time and admin) or not handled. False when there is no such message. */
export async function setContactMessageHandled(db: Executor, id: string, handled: boolean, adminId: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(contactMessages)
    .set(
      handled
        ? {
            handled_at: sql`coalesce(${contactMessages.handled_at}, ${now.toISOString()}::timestamptz)`,
            handled_by: sql`coalesce(${contactMessages.handled_by}, ${adminId})`,
          }
        : { handled_at: null, handled_by: null },
    )
    .where(eq(contactMessages.id, id))
    .returning({ id: contactMessages.id });
  return rows.length > 0;
}

/**
 * Records the reply on a message that has none, and marks it handled (if it was not), in one
 * conditional update: of two admins replying at once, one gets true and sends the mail. The
 * handling fields are left alone so that a failed mail can give the reply back (releaseReply).
 */
export async function claimReply(db: Executor, id: string, reply: { text: string; adminId: string; at: Date }): Promise<boolean> {
  const rows = await db
    .update(contactMessages)
    .set({ reply_text: reply.text, replied_at: reply.at, replied_by: reply.adminId })
    .where(and(eq(contactMessages.id, id), isNull(contactMessages.replied_at)))
    .returning({ id: contactMessages.id });
  return rows.length > 0;
}

/** The reply's mail could not be sent: the message has no reply after all. */
export async function releaseReply(db: Executor, id: string): Promise<void> {
  await db.update(contactMessages).set({ reply_text: null, replied_at: null, replied_by: null }).where(eq(contactMessages.id, id));
}
