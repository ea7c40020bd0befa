// The account API: profile, picture, sessions and e-mail preferences (/api/me/*), shared by the
// server and the dashboard's Settings page. Passwords and two-factor sign-in go through
// better-auth's own endpoints under /api/auth (change-password, two-factor/*).
import { z } from "zod";
import { NAME_MAX_LENGTH, PersonName } from "./names";

/** The profile picture: these types only, checked by their first bytes, not by their name. */
export const AVATAR_TYPES = ["image/png", "image/jpeg", "image/webp"] as const;
export type AvatarType = (typeof AVATAR_TYPES)[number];
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;

export const PROFILE_LIMITS = { fullName: NAME_MAX_LENGTH, company: 100, website: 200 } as const;

/** PATCH /api/me/profile. Empty strings clear Company and Website. */
export const ProfileUpdate = z.object({
  full_name: PersonName,
  company: z.string().trim().max(PROFILE_LIMITS.company),
  website: z
    .string()
    .trim()
    .max(PROFILE_LIMITS.website)
    .refine((value) => value === "" || /^https?:\/\/[^\s/$.?#].[^\s]*$/i.test(value), "Please enter a URL starting with http:// or https://"),
});
export type ProfileUpdate = z.infer<typeof ProfileUpdate>;

/** GET and PUT /api/me/notifications. */
export const NotificationPreferences = z.object({
  deployFailed: z.boolean().describe("A deployment failed (on by default)."),
  domainActive: z.boolean().describe("A custom domain became active (on by default)."),
  weeklySummary: z.boolean().describe("A weekly summary of visits (off by default)."),
});
export type NotificationPreferences = z.infer<typeof NotificationPreferences>;

/** GET /api/me/sessions: the user's signed-in browsers, the current one first. */
export const SessionInfo = z.object({
  id: z.string(),
  current: z.boolean(),
  device: z.string().describe('"Desktop", "Mobile" or "Tablet"; from the user agent.'),
  browser: z.string().describe('e.g. "Chrome 131", "Firefox", or "Unknown browser".'),
  os: z.string().nullable().describe('e.g. "macOS", "Windows", "Android", or null when unknown.'),
  ipAddress: z.string().nullable(),
  createdAt: z.string(),
  lastActiveAt: z.string(),
});
export type SessionInfo = z.infer<typeof SessionInfo>;

export const SessionsResponse = z.object({ sessions: z.array(SessionInfo) });
export type SessionsResponse = z.infer<typeof SessionsResponse>;

/** The account API's messages, shown as they are by the dashboard. */
export const ACCOUNT_TEXT = {
  /** A banned user: sign-in (better-auth code ACCOUNT_SUSPENDED) and every API call (403 account_suspended). */
  suspended: "This account has been suspended. Contact the operator.",
  avatarTooLarge: "Image too large",
  avatarTooLargeDetail: "The picture can be 2 MB at most.",
  avatarUnsupported: "Unsupported image",
  avatarUnsupportedDetail: "Please upload a PNG, JPEG or WebP image.",
  avatarNotFound: "No profile picture",
  sessionNotFound: "Session not found",
} as const;
