// A site's visibility. "private" (Pro) serves every host of the site only to browsers that opened
// one of its share links; going back to "public" is allowed on any plan.
import type { SiteVisibility } from "../../common/shareLinks";
import type { AppContext } from "../context";
import { updateSiteVisibility, type Site } from "../db/repositories/sites";
import { AppError } from "../errors";
import { requireFeature } from "./planPolicy";

/** The caller has checked that the site is the user's (requireSite). */
export async function setSiteVisibility(ctx: AppContext, userId: string, siteId: string, visibility: SiteVisibility): Promise<Site> {
  if (visibility === "private") await requireFeature(ctx, userId, "privateSites");
  const site = await updateSiteVisibility(ctx.db, userId, siteId, visibility);
  if (!site) throw new AppError("site_not_found", 404, "Site not found");
  // The edge caches each host's site entry until this event.
  ctx.events.emit("site", { userId, siteId: site.id, subdomain: site.subdomain });
  return site;
}
