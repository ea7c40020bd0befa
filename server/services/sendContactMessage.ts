// A contact-form message is counted against its sender's address first (CONTACT_LIMIT an hour),
// then stored, so nothing is lost if mail fails, then mailed to the operator's address. The
// visitor's success does not depend on the mail server. Support messages from the help page take
// the same path after their own count (per account): storeAndSendMessage is the one way either
// kind is stored and delivered.
import { addressKey } from "../http/address";
import type { ContactRequest } from "../../common/contact";
import { CONTACT_LIMIT } from "../../common/limits";
import type { ContactMessageKind } from "../../common/support";
import type { AppContext } from "../context";
import { insertContactMessage, markContactMessageDelivered, markContactMessageFailed } from "../db/repositories/contactMessages";
import { AppError } from "../errors";
import { contactMessageMail } from "../mail/templates";
import { notifyAdmins } from "./admin/notifyAdmins";
import { limitedAttempt, type AttemptOutcome } from "./limitedAttempt";

/** `clientAddress` is Fastify's request.ip (BERTH_TRUST_PROXY decides whether a proxy names it). */
export async function sendContactMessage(ctx: AppContext, message: ContactRequest, clientAddress: string): Promise<void> {
  const sent = await limitedAttempt(ctx.db, { key: `berth:contact:${addressKey(clientAddress)}`, rule: CONTACT_LIMIT }, () =>
    storeAndSendMessage(ctx, message, { kind: "contact", userId: null }),
  );
  throwIfLimited(sent);
}

export function throwIfLimited(outcome: AttemptOutcome<unknown>): void {
  if (outcome.limited) {
    throw new AppError("rate_limited", 429, `Too many messages. Please try again in ${Math.ceil(outcome.retryAfterSeconds / 60)} minutes.`);
  }
}

/**
 * Stores the message, then mails it to BERTH_CONTACT_EMAIL. Without that address nobody would
 * read it, so every admin gets a notice in their feed instead, leading to the admin page's inbox.
 */
export async function storeAndSendMessage(
  ctx: AppContext,
  message: ContactRequest,
  origin: { kind: ContactMessageKind; userId: string | null },
): Promise<void> {
  const stored = await insertContactMessage(ctx.db, { ...message, kind: origin.kind, user_id: origin.userId });
  const to = ctx.env.contactEmail;
  if (!to) {
    ctx.log.info({ id: stored.id, kind: origin.kind }, "message stored for the admins; set BERTH_CONTACT_EMAIL to have it mailed");
    await notifyAdmins(ctx, {
      kind: "support_message",
      title: `${origin.kind === "support" ? "Support request" : "Message"} from ${message.name}: ${message.subject}`,
      body: "Read and answer it on the admin page.",
      link: "/dashboard/admin",
    });
    return;
  }
  try {
    await ctx.mailer.send(contactMessageMail(to, message, origin));
    await markContactMessageDelivered(ctx.db, stored.id);
  } catch (error) {
    ctx.log.error({ err: error, id: stored.id }, "message stored but could not be mailed");
    await markContactMessageFailed(ctx.db, stored.id, error instanceof Error ? error.message : String(error));
  }
}
