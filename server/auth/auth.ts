// better-auth, configured for Berth: e-mail and password with verification required before the
// first sign-in, password reset that revokes old sessions, two-factor sign-in with an
// authenticator app, no sessions for suspended accounts, database-backed rate limits, and
// host-only SameSite=Lax cookies. Routes are mounted under /api/auth by api/auth/routes.ts.
import { betterAuth } from "better-auth";
import { APIError } from "better-auth/api";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { twoFactor } from "better-auth/plugins/two-factor";
import type { Db } from "../db/client";
import * as schema from "../db/schema";
import type { Mailer } from "../mail/mailer";
import { existingAccountMessage, resetPasswordMessage, verifyEmailMessage } from "../mail/templates";
import { createProfile, isUserBanned } from "../db/repositories/profiles";
import { twoFactorAttemptHooks } from "./twoFactorAttempts";
import { AUTH_LIMITS, PASSWORD_MIN_LENGTH, TWO_FACTOR_ACCOUNT_LIMIT } from "../../common/limits";
import { ACCOUNT_TEXT } from "../../common/account";

/** The header the API layer fills with Fastify's request.ip; any client-sent value is replaced. */
export const CLIENT_IP_HEADER = "x-berth-client-ip";

/** better-auth's error code when a suspended (banned) user signs in; the message is ACCOUNT_TEXT.suspended. */
export const ACCOUNT_SUSPENDED_CODE = "ACCOUNT_SUSPENDED";

/** Where a confirmation link lands: the sign-in page, which then says the address is confirmed. */
export const VERIFIED_CALLBACK = "/auth/login?verified=1";

export interface AuthOptions {
  db: Db;
  appUrl: string;
  secret: string;
  mailer: Mailer;
  /** Called when mail cannot be sent; the request itself still succeeds. */
  onMailError: (error: unknown) => void;
}

export function createAuth({ db, appUrl, secret, mailer, onMailError }: AuthOptions) {
  const secure = appUrl.startsWith("https://");
  const send = (message: Parameters<Mailer["send"]>[0]) =>
    mailer.send(message).catch(onMailError);

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
        await send(resetPasswordMessage(user.email, user.name, url));
      },
      onExistingUserSignUp: async ({ user }) => {
        await send(existingAccountMessage(user.email, user.name, `${appUrl}/auth/forgot-password`));
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
        await send(verifyEmailMessage(user.email, user.name, link.toString()));
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
    hooks: twoFactorAttemptHooks(db),
    databaseHooks: {
      user: {
        create: {
          after: async (user) => {
            await createProfile(db, { id: user.id, full_name: user.name });
          },
        },
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
