// Rows → the shapes of common/shareLinks.ts. The URL is worked out again each time from the
// link's id (the token is never stored), so the owner can always copy it.
import { shareLinkState, type ShareLinkResponse } from "../../../common/shareLinks";
import type { ShareLink, ShareLinkOpenRow } from "../../db/repositories/shareLinks";
import { shareToken, type ShareKeys } from "../../sites/shareTokens";
import type { SiteUrls } from "../../sites/urls";

export function presentShareLink(link: ShareLink, site: { subdomain: string }, urls: SiteUrls, keys: ShareKeys, now = Date.now()): ShareLinkResponse {
  return {
    id: link.id,
    site_id: link.site_id,
    name: link.name,
    // urls.site ends with "/".
    url: `${urls.site(site.subdomain)}_share/${shareToken(keys, link.id)}`,
    state: shareLinkState(link, now),
    expires_at: link.expires_at?.toISOString() ?? null,
    has_password: link.password_hash !== null,
    max_views: link.max_views,
    views: link.views,
    revoked_at: link.revoked_at?.toISOString() ?? null,
    created_at: link.created_at.toISOString(),
  };
}

export function presentShareLinkOpen(open: ShareLinkOpenRow): { opened_at: string; country: string | null; user_agent: string | null } {
  return { opened_at: open.opened_at.toISOString(), country: open.country, user_agent: open.user_agent };
}
