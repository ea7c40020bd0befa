// Sends a notice by e-mail when its owner chose that channel for its kind. notify() emits
// `noticeMail` on the node where the change happened (the event is never relayed), and this
// node's watcher (watchNotices.ts) sends it, so a slow mail server delays no request.
import { NOTIFICATION_KIND_TEXT } from "../../../common/notifications";
import type { AppContext } from "../../context";
import { getAccountNoticeRecipient } from "../../db/repositories/profiles";
import { noticeMessage } from "../../mail/templates";
import type { Notice } from "./notify";

/** Resolves to whether a message went out: none to a banned or vanished account. */
export async function sendNoticeMail(ctx: Pick<AppContext, "db" | "mailer" | "env">, notice: Notice): Promise<boolean> {
  const recipient = await getAccountNoticeRecipient(ctx.db, notice.userId);
  if (!recipient || recipient.banned) return false;
  await ctx.mailer.send(
    noticeMessage(recipient.email, {
      name: recipient.name,
      kindLabel: NOTIFICATION_KIND_TEXT[notice.kind].label,
      title: notice.title,
      body: notice.body ?? null,
      link: `${ctx.env.appUrl}${notice.link ?? "/dashboard"}`,
    }),
  );
  return true;
}
