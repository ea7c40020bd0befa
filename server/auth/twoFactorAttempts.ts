// Codes checked against one account's sign-in challenges, counted per account before the check.
// better-auth's two-factor plugin has three limits: per client address (its router's limiter,
// TWO_FACTOR_VERIFY_LIMIT, which counts atomically before the endpoint runs), five codes per
// challenge (taken by deleting and re-creating a row, so one check at a time), and a lockout
// after wrong codes in a row per account. That last one reads the account's failure count before
// checking the code and adds to it only afterwards, so one challenge per address, all sent at
// once, had every code checked (60 of 60, where the lockout is 10). These hooks count the attempt
// against the account in one statement before better-auth's endpoint runs.
import { APIError, createAuthMiddleware, isAPIError } from "better-auth/api";
import { TWO_FACTOR_ERROR_CODES } from "better-auth/plugins/two-factor";
import { TWO_FACTOR_ACCOUNT_LIMIT } from "../../common/limits";
import type { Db } from "../db/client";
import { countAttempt } from "../services/limitedAttempt";

/** The endpoints that check a second factor: verify-totp, verify-backup-code, verify-otp. */
const VERIFY_PATH = /^\/two-factor\/verify-/;
/** The plugin's sign-in challenge cookie (before the prefix), which names the pending account. */
const CHALLENGE_COOKIE = "two_factor";

type HookContext = Parameters<Parameters<typeof createAuthMiddleware>[0]>[0];

/** The account the request's challenge cookie is for, read exactly as the plugin reads it. */
async function challengedUser(ctx: HookContext): Promise<string | null> {
  const cookie = ctx.context.createAuthCookie(CHALLENGE_COOKIE);
  const identifier = await ctx.getSignedCookie(cookie.name, ctx.context.secret);
  if (!identifier) return null;
  const challenge = await ctx.context.internalAdapter.findVerificationValue(identifier);
  return challenge?.value ?? null;
}

/** Plain functions, run inside the auth instance's one before and after hook. */
export function twoFactorAttemptHooks(db: Db) {
  // The hooks of one request see the same Request object; a right code gives its attempt back.
  const giveBacks = new WeakMap<Request, () => Promise<void>>();
  return {
    async before(ctx: HookContext): Promise<void> {
      if (!VERIFY_PATH.test(ctx.path)) return;
      const userId = await challengedUser(ctx);
      // No challenge: a signed-in user confirming the authenticator (limited per address), or a
      // request better-auth refuses without checking any code.
      if (userId === null) return;
      const attempt = await countAttempt(db, { key: `berth:two-factor:${userId}`, rule: TWO_FACTOR_ACCOUNT_LIMIT });
      // The answer better-auth's own lockout gives, which the dashboard shows as "too many attempts".
      if (!attempt.allowed) throw APIError.from("TOO_MANY_REQUESTS", TWO_FACTOR_ERROR_CODES.ACCOUNT_TEMPORARILY_LOCKED);
      if (ctx.request) giveBacks.set(ctx.request, attempt.giveBack);
    },
    async after(ctx: HookContext): Promise<void> {
      if (!VERIFY_PATH.test(ctx.path) || !ctx.request) return;
      const giveBack = giveBacks.get(ctx.request);
      if (!giveBack) return;
      giveBacks.delete(ctx.request);
      if (!isAPIError(ctx.context.returned)) await giveBack();
    },
  };
}
