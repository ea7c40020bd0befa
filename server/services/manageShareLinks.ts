// Private share links (Pro). Creating a link, or restoring a revoked one, needs a plan that
// allows it; listing, renaming, revoking and deleting work on any plan, so an owner who went back
// to Free can still close what they shared. Every change drops the edge's cached hosts of the site
// (the `site` event), because they carry the links' expiry and revocation for checking cookies.
import type { z } from "zod";
import type { CreateShareLinkRequest, UpdateShareLinkRequest } from "../../common/shareLinks";
import type { AppContext } from "../context";
import {
  countShareLinksForSite,
  deleteShareLinkForUser,
  getShareLinkForUser,
  insertShareLink,
  updateShareLinkForUser,
  type ShareLink,
} from "../db/repositories/shareLinks";
import { hashSitePassword } from "../auth/sitePasswords";
import { AppError } from "../errors";
import { requireRoom } from "./accountCaps";
import { requireFeature } from "./planPolicy";
import { UUID } from "./siteAccess";

/** The site the caller has checked is the user's (requireSite). */
export interface OwnedSite {
  id: string;
  subdomain: string;
}

const linkNotFound = () => new AppError("share_link_not_found", 404, "Share link not found");

function changed(ctx: AppContext, userId: string, site: OwnedSite): void {
  ctx.events.emit("site", { userId, siteId: site.id, subdomain: site.subdomain });
}

/** The owner's link; a missing link, another site's and another user's are the same 404. */
export async function requireShareLink(ctx: AppContext, userId: string, site: OwnedSite, linkId: string): Promise<ShareLink> {
  const link = UUID.test(linkId) ? await getShareLinkForUser(ctx.db, userId, site.id, linkId) : undefined;
  if (!link) throw linkNotFound();
  return link;
}

export async function createShareLink(
  ctx: AppContext,
  userId: string,
  site: OwnedSite,
  request: z.output<typeof CreateShareLinkRequest>,
): Promise<ShareLink> {
  await requireFeature(ctx, userId, "expiringLinks");
  const passwordHash = request.password === null ? null : await hashSitePassword(request.password);
  const link = await ctx.db.transaction(async (tx) => {
    // The edge keeps every link of a site in the site's cached host entry: the cap bounds it.
    await requireRoom(tx, ctx.env.caps, "shareLinksPerSite", userId, (db) => countShareLinksForSite(db, site.id));
    return insertShareLink(tx, {
      site_id: site.id,
      user_id: userId,
      name: request.name,
      expires_at: request.expiresAt === null ? null : new Date(request.expiresAt),
      password_hash: passwordHash,
      max_views: request.maxViews,
    });
  });
  changed(ctx, userId, site);
  return link;
}

export async function updateShareLink(
  ctx: AppContext,
  userId: string,
  site: OwnedSite,
  linkId: string,
  request: UpdateShareLinkRequest,
): Promise<ShareLink> {
  const link = await requireShareLink(ctx, userId, site, linkId);
  // Restoring a revoked link turns the feature back on.
  const restoring = request.revoked === false && link.revoked_at !== null;
  if (restoring) await requireFeature(ctx, userId, "expiringLinks");
  const values: { name?: string; revoked_at?: Date | null } = {};
  if (request.name !== undefined) values.name = request.name;
  if (request.revoked === true && link.revoked_at === null) values.revoked_at = new Date();
  if (restoring) values.revoked_at = null;
  if (Object.keys(values).length === 0) return link;
  const updated = await updateShareLinkForUser(ctx.db, userId, site.id, link.id, values);
  if (!updated) throw linkNotFound();
  changed(ctx, userId, site);
  return updated;
}

export async function deleteShareLink(ctx: AppContext, userId: string, site: OwnedSite, linkId: string): Promise<void> {
  if (!UUID.test(linkId) || !(await deleteShareLinkForUser(ctx.db, userId, site.id, linkId))) throw linkNotFound();
  changed(ctx, userId, site);
}
