import type { Db } from "../db/client";
import { getSiteForUser, getSiteSummaryForUser, type Site, type SiteSummary } from "../db/repositories/sites";
import { AppError } from "../errors";
import { SITE_TEXT } from "../../common/sites";

/**
 * The owner's site; a missing site and someone else's are the same 404. Its row only: the totals
 * of its files (SiteSummary) add up the whole working tree, so only the answers that show them
 * read them.
 */
export async function requireSite(db: Db, userId: string, siteId: string): Promise<Site> {
  const site = UUID.test(siteId) ? await getSiteForUser(db, userId, siteId) : undefined;
  if (!site) throw siteNotFound();
  return site;
}

/** The owner's site with the totals of its files, for an answer that shows them; the same 404. */
export async function requireSiteSummary(db: Db, userId: string, siteId: string): Promise<SiteSummary> {
  const site = UUID.test(siteId) ? await getSiteSummaryForUser(db, userId, siteId) : undefined;
  if (!site) throw siteNotFound();
  return site;
}

const siteNotFound = () => new AppError("site_not_found", 404, SITE_TEXT.notFoundTitle);

/**
 * A deleted site can be read and restored, not changed: a change made in its grace period before the
 * purge (a visibility, a password, a share link, a domain…) would otherwise take effect the moment
 * it is restored, without anyone having seen it.
 */
export function requireNotDeleted(site: { is_deleted: boolean }): void {
  if (site.is_deleted) throw new AppError("site_deleted", 409, "This site is marked for deletion. Restore it first.");
}

/**
 * The owner's site, for a route or service that changes it (or anything under it): 404 as
 * requireSite, then 409 site_deleted while it is deleted. Every change to a site goes through
 * this, except restoring it and deleting it (whose own update refuses a deleted site).
 */
export async function requireSiteForChange(db: Db, userId: string, siteId: string): Promise<Site> {
  const site = await requireSite(db, userId, siteId);
  requireNotDeleted(site);
  return site;
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
