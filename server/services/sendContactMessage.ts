// A contact-form message is stored first, so nothing is lost if mail fails, then mailed to the
// operator's address. The visitor's success does not depend on the mail server.
import type { ContactRequest } from "../../common/contact";
import type { AppContext } from "../context";
import {
  insertContactMessage,
  markContactMessageDelivered,
  markContactMessageFailed,
} from "../db/repositories/contactMessages";
import { contactMessageMail } from "../mail/templates";

export async function sendContactMessage(ctx: AppContext, message: ContactRequest): Promise<void> {
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
