// The admin page's inbox: contact-form and support messages, newest first, marked handled and
// answered by e-mail. A reply is one text/plain mail to the address the message gave, recorded
// on the message; a message gets one reply here (the conversation goes on by e-mail).
import type { AdminMessage, AdminMessageReply, AdminMessagesQuery, AdminMessagesResponse } from "../../../common/support";
import { ADMIN_MESSAGES_PAGE_SIZE } from "../../../common/support";
import type { AppContext } from "../../context";
import {
  claimReply,
  countInboxMessages,
  getInboxMessage,
  listInboxMessages,
  releaseReply,
  setContactMessageHandled,
  type InboxMessage,
} from "../../db/repositories/contactMessages";
import { AppError } from "../../errors";
import { messageReplyMail } from "../../mail/templates";
import { UUID } from "../siteAccess";

type Ctx = Pick<AppContext, "db" | "env" | "mailer" | "log">;

function present(row: InboxMessage): AdminMessage {
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    email: row.email,
    subject: row.subject,
    message: row.message,
    userId: row.user_id,
    createdAt: row.created_at.toISOString(),
    deliveredAt: row.delivered_at?.toISOString() ?? null,
    deliveryError: row.delivery_error,
    handledAt: row.handled_at?.toISOString() ?? null,
    reply:
      row.reply_text !== null && row.replied_at ? { text: row.reply_text, sentAt: row.replied_at.toISOString(), by: row.replied_by_email } : null,
  };
}

const notFound = () => new AppError("message_not_found", 404, "Message not found");

async function requireMessage(ctx: Ctx, id: string): Promise<InboxMessage> {
  const row = UUID.test(id) ? await getInboxMessage(ctx.db, id) : undefined;
  if (!row) throw notFound();
  return row;
}

export async function listMessages(ctx: Ctx, query: AdminMessagesQuery): Promise<AdminMessagesResponse> {
  const page = query.page ?? 1;
  const [rows, counts] = await Promise.all([
    listInboxMessages(ctx.db, { limit: ADMIN_MESSAGES_PAGE_SIZE, offset: (page - 1) * ADMIN_MESSAGES_PAGE_SIZE }),
    countInboxMessages(ctx.db),
  ]);
  return { messages: rows.map(present), total: counts.total, unhandled: counts.unhandled, page, pageSize: ADMIN_MESSAGES_PAGE_SIZE };
}

export async function setMessageHandled(ctx: Ctx, adminId: string, id: string, handled: boolean, now = new Date()): Promise<AdminMessage> {
  if (!UUID.test(id) || !(await setContactMessageHandled(ctx.db, id, handled, adminId, now))) throw notFound();
  return present(await requireMessage(ctx, id));
}

export async function replyToMessage(
  ctx: Ctx,
  admin: { id: string; email: string },
  id: string,
  reply: AdminMessageReply,
  now = new Date(),
): Promise<AdminMessage> {
  const message = await requireMessage(ctx, id);
  if (!(await claimReply(ctx.db, id, { text: reply.message, adminId: admin.id, at: now }))) {
    throw new AppError("already_replied", 409, "This message has been answered already. Continue the conversation by e-mail.");
  }
  try {
    await ctx.mailer.send(
      messageReplyMail(message.email, {
        subject: message.subject,
        text: reply.message,
        sentAt: message.created_at,
        replyTo: ctx.env.contactEmail ?? admin.email,
      }),
    );
  } catch (error) {
    ctx.log.error({ err: error, id }, "the reply to a message could not be mailed");
    await releaseReply(ctx.db, id);
    throw new AppError("mail_failed", 502, "The reply could not be sent. Check the server's mail settings and try again.");
  }
  await setContactMessageHandled(ctx.db, id, true, admin.id, now);
  ctx.log.info({ id, by: admin.id }, "admin replied to a message");
  return present(await requireMessage(ctx, id));
}
