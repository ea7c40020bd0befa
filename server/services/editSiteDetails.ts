// A site's name and description (the Settings tab's General card). An empty description clears
// it; a request without one leaves it as it is.
import type { UpdateSiteRequest } from "../../common/sites";
import type { AppContext } from "../context";
import { updateSiteDetails, type Site } from "../db/repositories/sites";
import { AppError } from "../errors";

/** The caller has checked that the site is the user's and not deleted (requireSiteForChange). */
export async function editSiteDetails(
  ctx: Pick<AppContext, "db" | "events">,
  userId: string,
  siteId: string,
  details: UpdateSiteRequest,
): Promise<Site> {
  const site = await updateSiteDetails(ctx.db, userId, siteId, {
    name: details.name,
    ...(details.description !== undefined ? { description: details.description || null } : {}),
  });
  if (!site) throw new AppError("site_not_found", 404, "Site not found");
  // Open dashboards hear of the change and refetch the site.
  ctx.events.emit("site", { userId, siteId: site.id, subdomain: site.subdomain });
  return site;
}
