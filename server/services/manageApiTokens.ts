// API tokens: created, listed and revoked by their owner from a browser session. The secret is
// handed out once and only its SHA-256 kept; authenticateApiToken.ts checks it on each request.
import { createHash, randomBytes } from "node:crypto";
import type { z } from "zod";
import { API_TOKEN_PREFIX, type ApiTokenPermission, type CreateApiTokenRequest } from "../../common/apiTokens";
import type { AccountCaps } from "../../common/limits";
import type { AppContext } from "../context";
import type { Executor } from "../db/client";
import {
  countActiveApiTokensForUser,
  insertApiToken,
  listActiveApiTokensForUser,
  revokeApiTokenForUser,
  type ApiToken,
  type ApiTokenWithSite,
} from "../db/repositories/apiTokens";
import { AppError } from "../errors";
import { requireRoom } from "./accountCaps";
import { requireSiteForChange, UUID } from "./siteAccess";

/** How many characters of the secret the owner's list shows: the prefix and four of the random part. */
export const API_TOKEN_DISPLAY_CHARS = 10;

const DAY_MS = 24 * 60 * 60 * 1000;

/** The secret: the recognisable prefix and 32 random bytes (256 bits), base64url. */
export function generateApiTokenSecret(): string {
  return API_TOKEN_PREFIX + randomBytes(32).toString("base64url");
}

/**
 * What the database keeps of a secret. SHA-256, not a slow password hash: a secret of 256 random
 * bits cannot be guessed from its hash however fast the hash is, and every request must look up
 * its token by this value.
 */
export function hashApiTokenSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

const tokenNotFound = () => new AppError("api_token_not_found", 404, "API token not found");

export async function listApiTokens(ctx: AppContext, userId: string): Promise<ApiTokenWithSite[]> {
  return listActiveApiTokensForUser(ctx.db, userId);
}

/**
 * Creates a token and returns it with its secret, which is never available again. A token for one
 * site must name the owner's own site, not a deleted one (a deleted site can only be restored,
 * which a token cannot do); another user's site is the same 404 as a missing one.
 */
export async function createApiToken(
  ctx: AppContext,
  userId: string,
  request: z.output<typeof CreateApiTokenRequest>,
  now = new Date(),
): Promise<{ token: ApiTokenWithSite; secret: string }> {
  const site = request.siteId === null ? null : await requireSiteForChange(ctx.db, userId, request.siteId);
  const { token, secret } = await ctx.db.transaction((tx) =>
    insertNewApiToken(tx, ctx.env.caps, userId, {
      name: request.name,
      permission: request.permission,
      siteId: site?.id ?? null,
      expiresAt: request.expiresInDays === null ? null : new Date(now.getTime() + request.expiresInDays * DAY_MS),
    }),
  );
  return { token: { ...token, site: site && { id: site.id, name: site.name, subdomain: site.subdomain } }, secret };
}

/**
 * Makes a token inside the caller's transaction `tx`, under the account's cap lock, so the caller
 * can tie it to a change of its own (a CLI sign-in marked as used). The secret is returned once.
 */
export async function insertNewApiToken(
  tx: Executor,
  caps: AccountCaps,
  userId: string,
  fields: { name: string; permission: ApiTokenPermission; siteId: string | null; expiresAt: Date | null },
): Promise<{ token: ApiToken; secret: string }> {
  await requireRoom(tx, caps, "apiTokensPerAccount", userId, (db) => countActiveApiTokensForUser(db, userId));
  const secret = generateApiTokenSecret();
  const token = await insertApiToken(tx, {
    user_id: userId,
    name: fields.name,
    token_hash: hashApiTokenSecret(secret),
    prefix: secret.slice(0, API_TOKEN_DISPLAY_CHARS),
    permission: fields.permission,
    site_id: fields.siteId,
    expires_at: fields.expiresAt,
  });
  return { token, secret };
}

/** Revokes one of the owner's tokens: its next request is refused, on every node, as none caches it. */
export async function revokeApiToken(ctx: AppContext, userId: string, tokenId: string): Promise<void> {
  const revoked = UUID.test(tokenId) && (await revokeApiTokenForUser(ctx.db, userId, tokenId, new Date()));
  if (!revoked) throw tokenNotFound();
}
