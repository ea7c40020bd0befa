// The one way to put a notice in a user's feed. Call it after the change it reports has
// committed (a feed entry for a change that rolled back would be a lie); it writes the row and
// tells open dashboards on every node through the `notification` event. The user chooses per
// kind whether notices reach the feed, e-mail, both or neither (channels.ts): with the feed off
// no row is written; with e-mail on, the `noticeMail` event asks this node's mailer
// (noticeMail.ts) to send it, so the caller never waits for SMTP.
import type { NotificationKind } from "../../../common/notifications";
import type { AppContext } from "../../context";
import { insertNotification } from "../../db/repositories/notifications";
import { channelOf } from "./channels";

export interface Notice {
  userId: string;
  kind: NotificationKind;
  /** One line: what happened, naming the site or domain. */
  title: string;
  /** Optional detail: the reason, the numbers, what to do next. */
  body?: string | null;
  /** A dashboard path such as `/dashboard/sites/<id>`. */
  link?: string | null;
  siteId?: string | null;
}

/**
 * Kinds whose e-mail has its own template and sender, which predate the feed: the failed
 * deployment (notifyDeploymentFailed.ts, with the version and error) and the active domain
 * (notifyDomainActive.ts). notify() leaves their mail to those.
 */
export const MAILED_ON_THEIR_OWN: ReadonlySet<NotificationKind> = new Set(["deploy_failed", "domain_active"]);

export async function notify(ctx: Pick<AppContext, "db" | "events">, notice: Notice): Promise<void> {
  const channel = await channelOf(ctx, notice.userId, notice.kind);
  if (channel.feed) {
    const row = await insertNotification(ctx.db, {
      user_id: notice.userId,
      kind: notice.kind,
      title: notice.title,
      body: notice.body ?? null,
      link: notice.link ?? null,
      site_id: notice.siteId ?? null,
    });
    ctx.events.emit("notification", { userId: notice.userId, notificationId: row.id });
  }
  if (channel.email && !MAILED_ON_THEIR_OWN.has(notice.kind)) ctx.events.emit("noticeMail", notice);
}
