// The worker's part of the feed: notices older than NOTIFICATION_KEEP_DAYS go, and owners hear
// of sites whose expiry is less than a day away (once per site and expiry time).
import { NOTIFICATION_KEEP_DAYS } from "../../../common/notifications";
import type { AppContext } from "../../context";
import { deleteNotificationsCreatedBefore } from "../../db/repositories/notifications";
import { claimSitesExpiringBy } from "../../db/repositories/sites";
import { noticeSiteExpiring } from "./siteNotices";

const DAY_MS = 24 * 60 * 60 * 1000;

/** How long before a site's expiry its owner is told. */
export const EXPIRY_NOTICE_MS = DAY_MS;

export async function pruneNotifications(ctx: Pick<AppContext, "db">, now: Date): Promise<number> {
  return deleteNotificationsCreatedBefore(ctx.db, new Date(now.getTime() - NOTIFICATION_KEEP_DAYS * DAY_MS));
}

/**
 * Claiming marks each site told before its notice is written, so two workers never both tell;
 * a crash between the two loses that one notice rather than sending it twice.
 */
export async function noticeExpiringSites(ctx: Pick<AppContext, "db" | "events" | "log">, now: Date): Promise<number> {
  const sites = await claimSitesExpiringBy(ctx.db, now, new Date(now.getTime() + EXPIRY_NOTICE_MS));
  for (const site of sites) {
    await noticeSiteExpiring(ctx, { ...site, expires_at: site.expires_at! }).catch((error: unknown) =>
      ctx.log.error({ err: error, siteId: site.id }, "could not add the site-expiring notice"),
    );
  }
  return sites.length;
}
