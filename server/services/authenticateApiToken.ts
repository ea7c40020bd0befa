// Who an `Authorization: Bearer berth_…` request acts for. The token is looked up by the hash of
// its secret on every request, never cached, so a revocation, a ban or an account deletion
// refuses its next request on every node.
import { addressKey, unmappedIPv4 } from "../http/address";
import { ACCOUNT_TEXT } from "../../common/account";
import { API_TOKEN_PERMISSIONS, API_TOKEN_PREFIX, API_TOKEN_TEXT, type ApiTokenPermission } from "../../common/apiTokens";
import { API_TOKEN_LIMIT, API_TOKEN_MISS_LIMIT } from "../../common/limits";
import type { AppContext } from "../context";
import { getApiTokenByHash, recordApiTokenUse, type ApiToken, type PresentedApiToken } from "../db/repositories/apiTokens";
import { AppError } from "../errors";
import { countAttempt } from "./limitedAttempt";
import { hashApiTokenSecret } from "./manageApiTokens";

/** A token's last use is written at most this often, so a busy token is not a write per request. */
export const API_TOKEN_USE_RECORD_MS = 60_000;

/** The shape generateApiTokenSecret makes: anything else is refused before any query. */
const WELL_FORMED = new RegExp(`^${API_TOKEN_PREFIX}[A-Za-z0-9_-]{43}$`);

/** The rate-limit counter of the token whose secret hashes to `tokenHash`. */
export const apiTokenLimitKey = (tokenHash: string) => `berth:api-token:${tokenHash}`;

/** The counter of unknown tokens sent from one client address. */
export const apiTokenMissKey = (ip: string) => `berth:api-token-miss:${addressKey(ip)}`;

export const invalidToken = () => new AppError("invalid_token", 401, API_TOKEN_TEXT.invalidToken);

export class RateLimitedError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super("rate_limited", 429, API_TOKEN_TEXT.rateLimited(retryAfterSeconds));
  }
}

/** Whether a token of permission `has` may call a route that needs `needs`: each includes the ones before it. */
export function permits(has: ApiTokenPermission, needs: ApiTokenPermission): boolean {
  return API_TOKEN_PERMISSIONS.indexOf(has) >= API_TOKEN_PERMISSIONS.indexOf(needs);
}

/**
 * The token of `secret` and its owner: 429 past the token's rate limit, 401 for an unknown,
 * revoked or expired token (the owner's deletion removes their tokens), 403 when the owner is
 * banned, as for a banned session. The lookup by hash is one indexed read, and a 256-bit secret
 * cannot be guessed, so the limits guard cost rather than guesses: a known token's request is
 * counted against that token (the same for every address and node) before the route does any
 * work, and an unknown one against the sender's address, so made-up tokens add no counters.
 * Each count is one statement, so a burst cannot get past a limit.
 */
export async function authenticateApiToken(ctx: AppContext, secret: string, ip: string, now = new Date()): Promise<PresentedApiToken> {
  if (!WELL_FORMED.test(secret)) throw invalidToken();
  const tokenHash = hashApiTokenSecret(secret);
  const found = await getApiTokenByHash(ctx.db, tokenHash);
  const key = found ? apiTokenLimitKey(tokenHash) : apiTokenMissKey(ip);
  const counted = await countAttempt(ctx.db, { key, rule: found ? API_TOKEN_LIMIT : API_TOKEN_MISS_LIMIT });
  if (!counted.allowed) throw new RateLimitedError(counted.retryAfterSeconds);
  if (!found || found.token.revoked_at !== null) throw invalidToken();
  if (found.token.expires_at !== null && found.token.expires_at.getTime() <= now.getTime()) {
    throw new AppError("expired_token", 401, API_TOKEN_TEXT.expiredToken);
  }
  if (found.banned) throw new AppError("account_suspended", 403, ACCOUNT_TEXT.suspended);
  await noteUse(ctx, found.token, ip, now);
  return found;
}

async function noteUse(ctx: AppContext, token: ApiToken, ip: string, now: Date): Promise<void> {
  const since = new Date(now.getTime() - API_TOKEN_USE_RECORD_MS);
  if (token.last_used_at !== null && token.last_used_at > since) return;
  await recordApiTokenUse(ctx.db, token.id, now, unmappedIPv4(ip), since);
}
