// The help page's support form: a message from a signed-in account, in the account's name and
// verified address (so an answer reaches the account's owner), counted per account
// (SUPPORT_LIMIT), then stored and delivered exactly as a contact-form message.
import { SUPPORT_LIMIT, type SupportRequest } from "../../common/support";
import { oneLineName } from "../../common/names";
import type { AppContext } from "../context";
import { getProfileForUser } from "../db/repositories/profiles";
import { throwIfLimited, storeAndSendMessage } from "./sendContactMessage";
import { limitedAttempt } from "./limitedAttempt";

export async function sendSupportMessage(ctx: AppContext, user: { id: string; email: string; name: string }, body: SupportRequest): Promise<void> {
  const profile = await getProfileForUser(ctx.db, user.id);
  const name = oneLineName(profile?.full_name?.trim() || user.name) || user.email;
  const sent = await limitedAttempt(ctx.db, { key: `berth:support:${user.id}`, rule: SUPPORT_LIMIT }, () =>
    storeAndSendMessage(ctx, { name, email: user.email, subject: body.subject, message: body.message }, { kind: "support", userId: user.id }),
  );
  throwIfLimited(sent);
}
