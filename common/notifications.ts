// The notification feed: what can land in a user's bell, and which channels each kind may use.
// The server writes one row per notice (`notify`, server/services/notifications/notify.ts); the
// dashboard lists them, counts the unread and hears new ones over /api/events.
import { z } from "zod";

export const NOTIFICATION_KINDS = [
  "deploy_succeeded",
  "deploy_failed",
  "check_problems",
  "domain_active",
  "domain_failed",
  "share_link_used_up",
  "storage_warning",
  "storage_full",
  "site_expiring",
  "plan_changed",
  "upgrade_answered",
  "upgrade_requested",
  "support_message",
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** Notices are kept this long, then the worker deletes them. */
export const NOTIFICATION_KEEP_DAYS = 90;

export const Notification = z.object({
  id: z.string(),
  kind: z.enum(NOTIFICATION_KINDS),
  title: z.string(),
  body: z.string().nullable(),
  /** A dashboard path (starting with /dashboard) the notice leads to, or null. */
  link: z.string().nullable(),
  site_id: z.string().nullable(),
  created_at: z.string(),
  read_at: z.string().nullable(),
});
export type Notification = z.infer<typeof Notification>;

/** Who a kind is for: every account, or only the operators (admins) of the server. */
export type NotificationAudience = "everyone" | "admins";

/** Each kind's name and line in Settings, Notifications, and who hears of it. */
export const NOTIFICATION_KIND_TEXT: Record<NotificationKind, { label: string; description: string; audience: NotificationAudience }> = {
  deploy_succeeded: { label: "Deployment published", description: "A new version of a site went live.", audience: "everyone" },
  deploy_failed: { label: "Deployment failed", description: "A version could not be published; the previous one stays live.", audience: "everyone" },
  check_problems: { label: "Pre-publish check", description: "The check found problems in files you uploaded.", audience: "everyone" },
  domain_active: { label: "Custom domain active", description: "A custom domain's DNS and certificate are ready.", audience: "everyone" },
  domain_failed: { label: "Custom domain failed", description: "A custom domain could not be set up.", audience: "everyone" },
  share_link_used_up: { label: "Share link used up", description: "A share link reached its view limit.", audience: "everyone" },
  storage_warning: { label: "Storage at 80%", description: "Your sites use 80% of your plan's storage.", audience: "everyone" },
  storage_full: { label: "Storage full", description: "Your sites use all of your plan's storage.", audience: "everyone" },
  site_expiring: { label: "Site expiring", description: "A site's expiry date is less than a day away.", audience: "everyone" },
  plan_changed: { label: "Plan changed", description: "Your plan and its limits changed.", audience: "everyone" },
  upgrade_answered: { label: "Upgrade request answered", description: "Your request for another plan was answered.", audience: "everyone" },
  upgrade_requested: { label: "Upgrade requested", description: "Someone asked for another plan.", audience: "admins" },
  support_message: { label: "Support messages", description: "A message about your account.", audience: "everyone" },
};

/** Where a kind's notices go: the bell's feed, an e-mail, both or neither. */
export const NotificationChannel = z.object({
  feed: z.boolean().describe("Shown in the dashboard's notification feed."),
  email: z.boolean().describe("Sent by e-mail to the account's address."),
});
export type NotificationChannel = z.infer<typeof NotificationChannel>;

/** Every kind's channels. */
export const NotificationChannels = z.object(
  Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, NotificationChannel])) as Record<NotificationKind, typeof NotificationChannel>,
);
export type NotificationChannels = z.infer<typeof NotificationChannels>;

/**
 * What a new account gets: every kind in the feed; e-mail for a failed deployment and an active
 * custom domain, the two mails Berth sent before the feed existed.
 */
export const DEFAULT_NOTIFICATION_CHANNELS: NotificationChannels = Object.fromEntries(
  NOTIFICATION_KINDS.map((kind) => [kind, { feed: true, email: kind === "deploy_failed" || kind === "domain_active" }]),
) as NotificationChannels;

/** PUT /api/me/notifications/channels: the kinds named change, the others stay as they are. */
export const UpdateNotificationChannelsRequest = z.object({
  channels: z.partialRecord(z.enum(NOTIFICATION_KINDS), NotificationChannel),
});
export type UpdateNotificationChannelsRequest = z.infer<typeof UpdateNotificationChannelsRequest>;

/** Notices per page of GET /api/notifications. */
export const NOTIFICATION_PAGE_SIZE = 20;

/** GET /api/notifications: `before` is the previous page's `next_cursor`. */
export const NotificationListQuery = z.object({
  before: z
    .string()
    .regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3,6}Z_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, "Not a cursor from this list")
    .refine((cursor) => !Number.isNaN(Date.parse(cursor.slice(0, cursor.indexOf("_")))), "Not a cursor from this list")
    .optional()
    .describe("The `next_cursor` of the page before; leave out for the newest notices."),
  limit: z.coerce.number().int().min(1).max(50).default(NOTIFICATION_PAGE_SIZE),
});
export type NotificationListQuery = z.infer<typeof NotificationListQuery>;

export const NotificationListResponse = z.object({
  notifications: z.array(Notification).describe("Newest first."),
  /** Null on the last page. */
  next_cursor: z.string().nullable(),
  unread_count: z.number().int(),
});
export type NotificationListResponse = z.infer<typeof NotificationListResponse>;

export const UnreadCountResponse = z.object({ unread_count: z.number().int() });
export type UnreadCountResponse = z.infer<typeof UnreadCountResponse>;

/** POST /api/notifications/read-all: how many were unread. */
export const MarkAllReadResponse = z.object({ marked: z.number().int() });
export type MarkAllReadResponse = z.infer<typeof MarkAllReadResponse>;

/** The bell's texts. */
export const NOTIFICATIONS_TEXT = {
  title: "Notifications",
  empty: "No notifications yet",
  emptyBody: "We'll let you know when a deployment finishes or a domain goes live.",
  markAllRead: "Mark all as read",
  markRead: "Mark as read",
  unread: (count: number) => (count === 1 ? "1 unread notification" : `${count} unread notifications`),
  loadMore: "Show older",
  loadFailed: "Could not load notifications",
  markFailed: "Could not mark as read",
  settings: "Notification settings",
} as const;

/** What an account stores: only the channels it changed from the defaults. */
export type NotificationChannelOverrides = Partial<Record<NotificationKind, Partial<NotificationChannel>>>;
