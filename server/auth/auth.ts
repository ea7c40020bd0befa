// better-auth, configured for Berth: e-mail and password with verification required before the
// first sign-in, password reset that revokes old sessions, two-factor sign-in with an
// authenticator app, no sessions for suspended accounts, database-backed rate limits, and
// host-only SameSite=Lax cookies. Routes are mounted under /api/auth by api/auth/routes.ts.
// The minimal build: the same better-auth without Kysely, which it needs only to reach a database
// itself. Berth hands it the drizzle adapter, and its own migrations make the tables; the full
// build loaded Kysely's 260 modules into every server anyway.
import { betterAuth } from "better-auth/minimal";
import { APIError, createAuthMiddleware } from "better-auth/api";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { twoFactor } from "better-auth/plugins/two-factor";
import type { Db } from "../db/client";
import * as schema from "../db/schema";
import type { Mailer } from "../mail/mailer";
import { existingAccountMessage, resetPasswordMessage, verifyEmailMessage } from "../mail/templates";
import { createProfile, isUserBanned } from "../db/repositories/profiles";
import { twoFactorAttemptHooks } from "./twoFactorAttempts";
import { deleteResetTokensOfUser } from "../db/repositories/verifications";
import { AUTH_LIMITS, PASSWORD_MIN_LENGTH, TWO_FACTOR_ACCOUNT_LIMIT } from "../../common/limits";
import { ACCOUNT_TEXT } from "../../common/account";
import { PersonName } from "../../common/names";

/** The header the API layer fills with Fastify's request.ip; any client-sent value is replaced. */
export const CLIENT_IP_HEADER = "x-berth-client-ip";

/** better-auth's error code when a suspended (banned) user signs in; the message is ACCOUNT_TEXT.suspended. */
export const ACCOUNT_SUSPENDED_CODE = "ACCOUNT_SUSPENDED";

/** Where a confirmation link lands: the sign-in page, which then says the address is confirmed. */
export const VERIFIED_CALLBACK = "/auth/login?verified=1";

/** better-auth's error code for a name that breaks PersonName's rules; the message says which. */
export const INVALID_NAME_CODE = "INVALID_NAME";

/** The name, trimmed, or a 400 with PersonName's message (too long, not one line, empty). */
function checkedName(name: unknown): string {
  const result = PersonName.safeParse(name);
  if (result.success) return result.data;
  throw new APIError("BAD_REQUEST", { code: INVALID_NAME_CODE, message: result.error.issues[0]?.message ?? "Invalid name" });
}

/** Endpoints whose body sets the user's name. */
const NAME_SETTING_PATHS = new Set(["/sign-up/email", "/update-user"]);

export interface AuthOptions {
  db: Db;
  appUrl: string;
  secret: string;
  mailer: Mailer;
  /** The plan every new account starts on (the catalogue's default). */
  defaultPlan: string;
  /** Called when mail cannot be sent; the request itself still succeeds. */
  onMailError: (error: unknown) => void;
}

export function createAuth({ db, appUrl, secret, mailer, defaultPlan, onMailError }: AuthOptions) {
  const secure = appUrl.startsWith("https://");
  const twoFactorAttempts = twoFactorAttemptHooks(db);
  const send = (message: Parameters<Mailer["send"]>[0]) => mailer.send(message).catch(onMailError);
  /** better-auth hands its account hooks the written row (an update of many rows: a count). */
  const voidResetLinksOnPasswordWrite = async (account: unknown) => {
    if (typeof account !== "object" || account === null) return;
    const { userId, password } = account as { userId?: unknown; password?: unknown };
    if (typeof userId === "string" && typeof password === "string") await deleteResetTokensOfUser(db, userId);
  };

  return betterAuth({
    appName: "Berth",
    baseURL: appUrl,
    basePath: "/api/auth",
    secret,
    trustedOrigins: [appUrl],
    // Its answer carries every session's token, readable by the page's script; the dashboard
    // lists sessions through /api/me/sessions, which names them by id only.
    disabledPaths: ["/list-sessions"],
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: {
        user: schema.users,
        session: schema.sessions,
        account: schema.accounts,
        verification: schema.verifications,
        rateLimit: schema.rateLimits,
        twoFactor: schema.twoFactors,
      },
    }),
    plugins: [
      // TOTP with an authenticator app: /two-factor/enable answers the otpauth:// URI and ten
      // one-time backup codes (both stored encrypted with the secret); it takes effect once
      // /two-factor/verify-totp accepts a first code. Sign-in then answers twoFactorRedirect.
      // Its lockout after wrong codes in a row takes Berth's per-account numbers; the counts that
      // hold against codes sent in parallel are Berth's own (twoFactorAttempts.ts, in hooks).
      twoFactor({
        issuer: "Berth",
        accountLockout: { maxFailedAttempts: TWO_FACTOR_ACCOUNT_LIMIT.max, durationSeconds: TWO_FACTOR_ACCOUNT_LIMIT.window },
      }),
    ],
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: 128,
      autoSignIn: false,
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: 60 * 60,
      sendResetPassword: async ({ user, url }) => {
        await send(resetPasswordMessage(user.email, url));
      },
      // better-auth spends only the token used; the account's other reset links would otherwise
      // still change the password again, for the rest of their hour.
      onPasswordReset: async ({ user }) => {
        await deleteResetTokensOfUser(db, user.id);
      },
      onExistingUserSignUp: async ({ user }) => {
        await send(existingAccountMessage(user.email, `${appUrl}/auth/forgot-password`));
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      sendOnSignIn: true,
      autoSignInAfterVerification: false,
      expiresIn: 24 * 60 * 60,
      sendVerificationEmail: async ({ user, url }) => {
        // Every confirmation link returns to the sign-in page, including the ones re-sent when an
        // unverified user tries to sign in (better-auth would send those back to "/").
        const link = new URL(url);
        link.searchParams.set("callbackURL", VERIFIED_CALLBACK);
        await send(verifyEmailMessage(user.email, link.toString()));
      },
    },
    session: {
      expiresIn: 30 * 24 * 60 * 60,
      updateAge: 24 * 60 * 60,
      // Every request reads the session row, so a revoked session stops working at once.
      cookieCache: { enabled: false },
    },
    rateLimit: {
      enabled: true,
      storage: "database",
      window: 60,
      max: 100,
      customRules: {
        "/sign-in/email": AUTH_LIMITS.signIn,
        "/sign-up/email": AUTH_LIMITS.signUp,
        "/request-password-reset": AUTH_LIMITS.reset,
        "/reset-password": AUTH_LIMITS.reset,
        "/send-verification-email": AUTH_LIMITS.reset,
        // Counted by Berth instead, per address and per account across both kinds of code
        // (twoFactorAttempts.ts): this limiter keys on the path, so each kind had its own count.
        "/two-factor/verify-totp": false,
        "/two-factor/verify-backup-code": false,
        "/two-factor/verify-otp": false,
      },
    },
    hooks: {
      // Checked on the request, before better-auth looks the address up: a sign-up for an address
      // that already has an account answers like a new one, so a bad name must fail the same way
      // for both, or the answer would tell which addresses have accounts.
      before: createAuthMiddleware(async (ctx) => {
        if (!NAME_SETTING_PATHS.has(ctx.path)) return twoFactorAttempts.before(ctx);
        const body = (ctx.body ?? {}) as Record<string, unknown>;
        if (ctx.path === "/update-user" && body.name === undefined) return;
        return { context: { ...ctx, body: { ...body, name: checkedName(body.name) } } };
      }),
      after: createAuthMiddleware(async (ctx) => twoFactorAttempts.after(ctx)),
    },
    databaseHooks: {
      user: {
        create: {
          // Every way a user row is written (any endpoint, a server-side call) keeps the rules.
          before: async (user) => ({ data: { ...user, name: checkedName(user.name) } }),
          after: async (user) => {
            await createProfile(db, { id: user.id, full_name: user.name, plan: defaultPlan });
          },
        },
        update: {
          before: async (user) => (user.name === undefined ? undefined : { data: { ...user, name: checkedName(user.name) } }),
        },
      },
      account: {
        // Berth's only accounts are e-mail and password ones, so writing one with a password is
        // setting the password (change-password updates the row; a reset may create it): links
        // sent for the old password must not set another one.
        create: { after: voidResetLinksOnPasswordWrite },
        update: { after: voidResetLinksOnPasswordWrite },
      },
      session: {
        create: {
          // Every way in (password, two-factor code, a new session after a password change)
          // creates a session, so refusing here locks a suspended account out everywhere.
          before: async (session) => {
            if (await isUserBanned(db, session.userId)) {
              throw new APIError("FORBIDDEN", { code: ACCOUNT_SUSPENDED_CODE, message: ACCOUNT_TEXT.suspended });
            }
          },
        },
      },
    },
    advanced: {
      // better-auth turns its own origin and callbackURL checks off when NODE_ENV is "test";
      // stating it keeps them on there too, so the tests exercise what production runs.
      disableOriginCheck: false,
      useSecureCookies: secure,
      cookiePrefix: "berth",
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax", path: "/" },
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;
