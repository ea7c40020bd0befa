// A site's password (Pro). Setting or changing it needs a plan that allows it; removing it is
// allowed on any plan, so an owner who went back to Free can still open the site again. Either
// way the password version goes up, which ends every visitor's pass cookie.
import type { AppContext } from "../context";
import { updateSitePassword, type Site } from "../db/repositories/sites";
import { hashSitePassword } from "../auth/sitePasswords";
import { AppError } from "../errors";
import { requireFeature } from "./planPolicy";

/** The caller has checked that the site is the user's (requireSite). null removes the password. */
export async function setSitePassword(ctx: AppContext, userId: string, siteId: string, password: string | null): Promise<Site> {
  if (password !== null) await requireFeature(ctx, userId, "passwordProtection");
  const hash = password === null ? null : await hashSitePassword(password);
  const site = await updateSitePassword(ctx.db, userId, siteId, hash);
  if (!site) throw new AppError("site_not_found", 404, "Site not found");
  // The edge caches each host's site entry (and the pass cookies it verified) until this event.
  ctx.events.emit("site", { userId, siteId: site.id, subdomain: site.subdomain });
  return site;
}
