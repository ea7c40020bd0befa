// API tokens: how scripts, CI and the `berth` CLI act for a user without a browser session.
// Schemas shared by the server and the dashboard.
//
//   GET    /api/tokens                              → ApiTokenListResponse (newest first)
//   POST   /api/tokens    CreateApiTokenRequest     → 201 CreatedApiTokenResponse (the secret, once)
//   DELETE /api/tokens/:tokenId                     → 204 (revoked at once, on every node)
//
// These three take a browser session only: a token never creates, lists or revokes tokens.
// Elsewhere, `Authorization: Bearer berth_…` acts with the token's permission on the routes that
// permission covers, within its scope (all the owner's sites, or one), and never on auth,
// password, two-factor, session, account or admin routes.
import { z } from "zod";

/** Every secret starts with this, so secret scanners can recognise a leaked one. */
export const API_TOKEN_PREFIX = "berth_";
export const API_TOKEN_NAME_MAX = 60;

/**
 * What a token may do, each including the one before:
 * - read: list and read sites, deployments, files and stats;
 * - deploy: also publish new versions (uploads, file changes) and roll back;
 * - full: everything the owner can do with sites and domains, but not account or security settings.
 */
export const API_TOKEN_PERMISSIONS = ["read", "deploy", "full"] as const;
export type ApiTokenPermission = (typeof API_TOKEN_PERMISSIONS)[number];

/** The expiries the dashboard offers, in days; null is "never". */
export const API_TOKEN_EXPIRY_DAYS = [7, 30, 90, 365] as const;

export const API_TOKEN_TEXT = {
  nameRequired: "Token name is required",
  nameTooLong: `Token name must be at most ${API_TOKEN_NAME_MAX} characters`,
  invalidExpiry: "Choose when the token expires",
  created: "Token created",
  createFailed: "Failed to create token",
  revoked: "Token revoked",
  revokeFailed: "Failed to revoke token",
  copyOnce: "Copy this token now. You won't be able to see it again.",
  invalidToken: "Invalid or revoked API token",
  expiredToken: "This API token has expired",
  outOfScope: "This API token does not cover this site",
  notPermitted: "This API token's permission does not allow this",
  sessionOnly: "This action needs a signed-in browser session, not an API token",
  ambiguousCredentials: "Send either an API token or a session cookie, not both",
  rateLimited: (seconds: number) => `Too many requests with this API token. Try again in ${seconds} seconds.`,
} as const;

export const CreateApiTokenRequest = z.object({
  name: z
    .string({ error: API_TOKEN_TEXT.nameRequired })
    .trim()
    .min(1, API_TOKEN_TEXT.nameRequired)
    .max(API_TOKEN_NAME_MAX, API_TOKEN_TEXT.nameTooLong),
  siteId: z.string().min(1).nullable().default(null).describe("null: all the owner's sites, now and later."),
  permission: z.enum(API_TOKEN_PERMISSIONS),
  expiresInDays: z
    .number({ error: API_TOKEN_TEXT.invalidExpiry })
    .int()
    .min(1)
    .max(365)
    .nullable()
    .default(null)
    .describe("Days from now; null: never expires."),
});
export type CreateApiTokenRequest = z.input<typeof CreateApiTokenRequest>;

export const ApiTokenResponse = z.object({
  id: z.string(),
  name: z.string(),
  permission: z.enum(API_TOKEN_PERMISSIONS),
  site: z
    .object({ id: z.string(), name: z.string(), subdomain: z.string().nullable() })
    .nullable()
    .describe("The one site the token covers, or null for all the owner's sites."),
  prefix: z.string().describe('The secret\'s first characters ("berth_a1b2"), so a person can tell tokens apart.'),
  created_at: z.string(),
  expires_at: z.string().nullable(),
  last_used_at: z.string().nullable(),
  last_used_ip: z.string().nullable(),
});
export type ApiTokenResponse = z.infer<typeof ApiTokenResponse>;

export const ApiTokenListResponse = z.object({ tokens: z.array(ApiTokenResponse) });
export type ApiTokenListResponse = z.infer<typeof ApiTokenListResponse>;

export const CreatedApiTokenResponse = z.object({
  token: ApiTokenResponse,
  secret: z.string().describe("The whole secret. Shown once; the server keeps only its hash."),
});
export type CreatedApiTokenResponse = z.infer<typeof CreatedApiTokenResponse>;
