import type { Db } from "../db/client";
import { getSiteSummaryForUser, type SiteSummary } from "../db/repositories/sites";
import { AppError } from "../errors";
import { SITE_TEXT } from "../../common/sites";

/** The owner's site; a missing site and someone else's are the same 404. */
export async function requireSite(db: Db, userId: string, siteId: string): Promise<SiteSummary> {
  const site = UUID.test(siteId) ? await getSiteSummaryForUser(db, userId, siteId) : undefined;
  if (!site) throw new AppError("site_not_found", 404, SITE_TEXT.notFoundTitle);
  return site;
}

/** A deleted site can be restored, not changed. */
export function requireNotDeleted(site: { is_deleted: boolean }): void {
  if (site.is_deleted) throw new AppError("site_deleted", 409, "This site is marked for deletion. Restore it first.");
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
