// Private share links (Pro) and a site's visibility: schemas shared by the server and the dashboard.
//
//   GET    /api/sites/:id/share-links                       → ShareLinkListResponse (newest first)
//   POST   /api/sites/:id/share-links   CreateShareLinkRequest → 201 ShareLinkResponse (Pro)
//   PATCH  /api/sites/:id/share-links/:linkId UpdateShareLinkRequest → ShareLinkResponse (revoke / restore, rename)
//   DELETE /api/sites/:id/share-links/:linkId               → 204
//   GET    /api/sites/:id/share-links/:linkId/opens         → ShareLinkOpensResponse (the last 50 opens)
//   PUT    /api/sites/:id/visibility    UpdateVisibilityRequest → SiteResponse ("private" is Pro)
//
// On the site's hosts: GET /_share/<token> checks the link (410 when expired, revoked or out of
// views; 404 when the token is not one Berth made), asks for the link's password if it has one,
// counts the open, sets a host-only cookie for that browser and redirects to /.
import { z } from "zod";

/** The path prefix of share links on every host of a site. */
export const SHARE_PATH_PREFIX = "/_share/";
/** Opens listed per link in the dashboard. */
export const SHARE_LOG_LIMIT = 50;
export const SHARE_LINK_NAME_MAX = 100;

export const SITE_VISIBILITIES = ["public", "private"] as const;
export type SiteVisibility = (typeof SITE_VISIBILITIES)[number];

export const SHARE_LINK_TEXT = {
  nameRequired: "Link name is required",
  nameTooLong: `Link name must be at most ${SHARE_LINK_NAME_MAX} characters`,
  expiryInPast: "The expiry time must be in the future",
  invalidTime: "Enter a valid date and time",
  maxViews: "Enter a whole number of views from 1 to 1,000,000",
  created: "Share link created",
  createFailed: "Failed to create share link",
  revoked: "Share link revoked",
  restored: "Share link restored",
  deleted: "Share link deleted",
  copied: "Link copied",
  visibilityPrivate: "Site is now private",
  visibilityPublic: "Site is now public",
  visibilityFailed: "Failed to change visibility",
} as const;

export const CreateShareLinkRequest = z
  .object({
    name: z
      .string({ error: SHARE_LINK_TEXT.nameRequired })
      .trim()
      .min(1, SHARE_LINK_TEXT.nameRequired)
      .max(SHARE_LINK_NAME_MAX, SHARE_LINK_TEXT.nameTooLong),
    expiresAt: z.iso
      .datetime({ offset: true, error: SHARE_LINK_TEXT.invalidTime })
      .nullable()
      .default(null)
      .describe("ISO time the link stops working; null: never."),
    password: z
      .string()
      .min(4, "Password must be at least 4 characters")
      .max(200)
      .nullable()
      .default(null)
      .describe("Asked once per browser before the link opens the site; null: none."),
    maxViews: z
      .number({ error: SHARE_LINK_TEXT.maxViews })
      .int(SHARE_LINK_TEXT.maxViews)
      .min(1, SHARE_LINK_TEXT.maxViews)
      .max(1_000_000, SHARE_LINK_TEXT.maxViews)
      .nullable()
      .default(null)
      .describe("Opens allowed, one per browser; null: no limit."),
  })
  .superRefine((body, ctx) => {
    if (body.expiresAt !== null && Date.parse(body.expiresAt) <= Date.now()) {
      ctx.addIssue({ code: "custom", path: ["expiresAt"], message: SHARE_LINK_TEXT.expiryInPast });
    }
  });
export type CreateShareLinkRequest = z.input<typeof CreateShareLinkRequest>;

export const UpdateShareLinkRequest = z.object({
  name: z.string().trim().min(1, SHARE_LINK_TEXT.nameRequired).max(SHARE_LINK_NAME_MAX, SHARE_LINK_TEXT.nameTooLong).optional(),
  revoked: z.boolean().optional().describe("true revokes the link at once; false restores it."),
});
export type UpdateShareLinkRequest = z.infer<typeof UpdateShareLinkRequest>;

export const SHARE_LINK_STATES = ["active", "expired", "revoked", "exhausted"] as const;
export type ShareLinkState = (typeof SHARE_LINK_STATES)[number];

export const ShareLinkResponse = z.object({
  id: z.string(),
  site_id: z.string(),
  name: z.string(),
  url: z.string().describe("The full URL to hand out: {site url}/_share/<token>."),
  state: z.enum(SHARE_LINK_STATES),
  expires_at: z.string().nullable(),
  has_password: z.boolean(),
  max_views: z.number().int().nullable(),
  views: z.number().int().describe("Opens so far."),
  revoked_at: z.string().nullable(),
  created_at: z.string(),
});
export type ShareLinkResponse = z.infer<typeof ShareLinkResponse>;

export const ShareLinkListResponse = z.object({ links: z.array(ShareLinkResponse) });
export type ShareLinkListResponse = z.infer<typeof ShareLinkListResponse>;

export const ShareLinkOpen = z.object({
  opened_at: z.string(),
  country: z.string().nullable().describe("ISO 3166 code when a GeoIP source is configured; null otherwise."),
  user_agent: z.string().nullable(),
});
export const ShareLinkOpensResponse = z.object({ opens: z.array(ShareLinkOpen) });
export type ShareLinkOpensResponse = z.infer<typeof ShareLinkOpensResponse>;

export const UpdateVisibilityRequest = z.object({ visibility: z.enum(SITE_VISIBILITIES) });
export type UpdateVisibilityRequest = z.infer<typeof UpdateVisibilityRequest>;

/** Where a link stands at `now`; revoked wins over expired, which wins over exhausted. */
export function shareLinkState(
  link: { revoked_at: string | Date | null; expires_at: string | Date | null; max_views: number | null; views: number },
  now: number = Date.now(),
): ShareLinkState {
  if (link.revoked_at !== null) return "revoked";
  if (link.expires_at !== null && new Date(link.expires_at).getTime() <= now) return "expired";
  if (link.max_views !== null && link.views >= link.max_views) return "exhausted";
  return "active";
}

/** The dashboard's words for a link's state. */
export const SHARE_LINK_STATE_LABELS: Record<ShareLinkState, string> = {
  active: "Active",
  expired: "Expired",
  revoked: "Revoked",
  exhausted: "Exhausted",
};

/** The dashboard's texts around share links beyond the API's own. */
export const SHARE_LINK_UI_TEXT = {
  privateSwitch: "Private: only share links",
  updateFailed: "Failed to update share link",
  deleteFailed: "Failed to delete share link",
  noLinks: "No share links yet",
  noOpens: "Nobody has opened this link yet",
  logFailed: "Failed to load the access log",
} as const;

/** What a site's hosts show around share links and private sites (server/edge/pages.ts). */
export const SHARE_PAGE_TEXT = {
  goneTitle: "This link has expired",
  goneBody: "This share link is no longer valid. Ask the person who shared it with you for a new one.",
  notFoundTitle: "Link not found",
  notFoundBody: "This share link is not valid. Check that you copied the whole address.",
  privateTitle: "This site is private",
  privateBody: "Only people with a share link from its owner can view this site.",
  passwordTitle: "This link is password protected",
  passwordBody: "Enter the link's password to view the site.",
  wrongPassword: "That password is not right. Try again.",
  tooManyPasswords: "Too many wrong passwords. Wait a few minutes, then try again.",
  tooLarge: "That request was too large.",
} as const;
