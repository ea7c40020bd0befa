// A site's expiry and go-live times (Pro). Setting either needs a plan that allows it; clearing
// both is allowed on any plan, so an owner who went back to Free can still take them off.
import type { UpdateScheduleRequest } from "../../common/sites";
import type { AppContext } from "../context";
import { updateSiteSchedule, type Site } from "../db/repositories/sites";
import { AppError } from "../errors";
import { requireFeature } from "./planPolicy";

/** The caller has checked that the site is the user's (requireSite). */
export async function scheduleSite(ctx: AppContext, userId: string, siteId: string, schedule: UpdateScheduleRequest): Promise<Site> {
  const setting = schedule.expiresAt !== null || schedule.publishAt !== null;
  if (setting) await requireFeature(ctx, userId, "siteExpiry");
  const site = await updateSiteSchedule(ctx.db, userId, siteId, {
    expires_at: schedule.expiresAt === null ? null : new Date(schedule.expiresAt),
    publish_at: schedule.publishAt === null ? null : new Date(schedule.publishAt),
  });
  if (!site) throw new AppError("site_not_found", 404, "Site not found");
  // The edge caches each host's site entry until this event.
  ctx.events.emit("site", { userId, siteId: site.id, subdomain: site.subdomain });
  return site;
}
