// Second-factor codes are counted before better-auth checks them: per client address and per
// account, authenticator and backup codes together. The plugin alone limited them per address
// and per endpoint (its router's limiter keys on the path, so each address had 10 authenticator
// codes and 10 backup codes), five per sign-in challenge (one check at a time: the challenge's
// attempt row is deleted and re-created), and per account by a lockout after wrong codes in a row
// that reads the failure count before checking the code and adds to it only afterwards: one
// challenge per address, all sent at once, had half of 100 codes checked where the lockout is 10.
import { addressKey } from "../http/address";
import { APIError, createAuthMiddleware, getIP, isAPIError } from "better-auth/api";
import { TWO_FACTOR_ERROR_CODES } from "better-auth/plugins/two-factor";
import { TWO_FACTOR_ACCOUNT_LIMIT, TWO_FACTOR_VERIFY_LIMIT } from "../../common/limits";
import type { Db } from "../db/client";
import { countAttempt } from "../services/limitedAttempt";

/** The endpoints that check a second factor: verify-totp, verify-backup-code, verify-otp. */
export const TWO_FACTOR_VERIFY_PATH = /^\/two-factor\/verify-/;
/** The plugin's sign-in challenge cookie (before the prefix), which names the pending account. */
const CHALLENGE_COOKIE = "two_factor";
/** What better-auth's own limiter answers, so the per-address refusal looks the same as before. */
const TOO_MANY_REQUESTS = "Too many requests. Please try again later.";

type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

/** The account the request's challenge cookie is for, read exactly as the plugin reads it. */
async function challengedUser(ctx: HookContext): Promise<string | null> {
  const cookie = ctx.context.createAuthCookie(CHALLENGE_COOKIE);
  const identifier = await ctx.getSignedCookie(cookie.name, ctx.context.secret);
  if (!identifier) return null;
  const challenge = await ctx.context.internalAdapter.findVerificationValue(identifier);
  return challenge?.value ?? null;
}

/**
 * better-auth hooks around its verify endpoints. better-auth's router limiter must not also limit
 * those paths (auth.ts turns it off for them): this count replaces it. Plain functions, run inside
 * the auth instance's one before and after hook.
 */
export function twoFactorAttemptHooks(db: Db) {
  // The hooks of one request see the same Request object; a right code gives its attempt back.
  const giveBacks = new WeakMap<Request, () => Promise<void>>();
  return {
    async before(ctx: HookContext): Promise<void> {
      if (!TWO_FACTOR_VERIFY_PATH.test(ctx.path) || !ctx.request) return;
      // The address the API bridge put in (Fastify's request.ip), as better-auth's limiter reads it.
      const address = getIP(ctx.request, ctx.context.options) ?? "unknown";
      const fromAddress = await countAttempt(db, { key: `berth:two-factor-address:${addressKey(address)}`, rule: TWO_FACTOR_VERIFY_LIMIT });
      if (!fromAddress.allowed) {
        throw new APIError("TOO_MANY_REQUESTS", { message: TOO_MANY_REQUESTS }, { "X-Retry-After": String(fromAddress.retryAfterSeconds) });
      }
      const userId = await challengedUser(ctx);
      // No challenge: a signed-in user confirming the authenticator, or a request better-auth
      // refuses without checking any code.
      if (userId === null) return;
      const forAccount = await countAttempt(db, { key: `berth:two-factor:${userId}`, rule: TWO_FACTOR_ACCOUNT_LIMIT });
      // The answer better-auth's own lockout gives, which the dashboard shows as "too many attempts".
      if (!forAccount.allowed) throw APIError.from("TOO_MANY_REQUESTS", TWO_FACTOR_ERROR_CODES.ACCOUNT_TEMPORARILY_LOCKED);
      giveBacks.set(ctx.request, forAccount.giveBack);
    },
    async after(ctx: HookContext): Promise<void> {
      if (!TWO_FACTOR_VERIFY_PATH.test(ctx.path) || !ctx.request) return;
      const giveBack = giveBacks.get(ctx.request);
      if (!giveBack) return;
      giveBacks.delete(ctx.request);
      if (!isAPIError(ctx.context.returned)) await giveBack();
    },
  };
}
