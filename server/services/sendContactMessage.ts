// A contact-form message is counted against its sender's address first (CONTACT_LIMIT an hour),
// then stored, so nothing is lost if mail fails, then mailed to the operator's address. The
// visitor's success does not depend on the mail server.
import { addressKey } from "../http/address";
import type { ContactRequest } from "../../common/contact";
import { CONTACT_LIMIT } from "../../common/limits";
import type { AppContext } from "../context";
import { insertContactMessage, markContactMessageDelivered, markContactMessageFailed } from "../db/repositories/contactMessages";
import { AppError } from "../errors";
import { contactMessageMail } from "../mail/templates";
import { limitedAttempt } from "./limitedAttempt";

/** `clientAddress` is Fastify's request.ip (BERTH_TRUST_PROXY decides whether a proxy names it). */
export async function sendContactMessage(ctx: AppContext, message: ContactRequest, clientAddress: string): Promise<void> {
  const sent = await limitedAttempt(ctx.db, { key: `berth:contact:${addressKey(clientAddress)}`, rule: CONTACT_LIMIT }, () => deliver(ctx, message));
  if (sent.limited) {
    throw new AppError("rate_limited", 429, `Too many messages. Please try again in ${Math.ceil(sent.retryAfterSeconds / 60)} minutes.`);
  }
}

async function deliver(ctx: AppContext, message: ContactRequest): Promise<void> {
  const stored = await insertContactMessage(ctx.db, message);
  const to = ctx.env.contactEmail;
  if (!to) {
    ctx.log.warn({ id: stored.id }, "contact message stored; set BERTH_CONTACT_EMAIL to have it mailed");
    return;
  }
  try {
    await ctx.mailer.send(contactMessageMail(to, message));
    await markContactMessageDelivered(ctx.db, stored.id);
  } catch (error) {
    ctx.log.error({ err: error, id: stored.id }, "contact message stored but could not be mailed");
    await markContactMessageFailed(ctx.db, stored.id, error instanceof Error ? error.message : String(error));
  }
}
