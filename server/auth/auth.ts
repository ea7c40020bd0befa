// better-auth, configured for Berth: e-mail and password with verification required before the
// first sign-in, password reset that revokes old sessions, database-backed rate limits, and
// host-only SameSite=Lax cookies. Routes are mounted under /api/auth by api/auth/routes.ts.
import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import type { Db } from "../db/client";
import * as schema from "../db/schema";
import type { Mailer } from "../mail/mailer";
import { existingAccountMessage, resetPasswordMessage, verifyEmailMessage } from "../mail/templates";
import { createProfile } from "../db/repositories/profiles";
import { AUTH_LIMITS, PASSWORD_MIN_LENGTH } from "../../common/limits";

/** The header the API layer fills with Fastify's request.ip; any client-sent value is replaced. */
export const CLIENT_IP_HEADER = "x-berth-client-ip";

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
    database: drizzleAdapter(db, {
      provider: "pg",
      schema: {
        user: schema.users,
        session: schema.sessions,
        account: schema.accounts,
        verification: schema.verifications,
        rateLimit: schema.rateLimits,
      },
    }),
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
      },
    },
    databaseHooks: {
      user: {
        create: {
          after: async (user) => {
            await createProfile(db, { id: user.id, full_name: user.name });
          },
        },
      },
    },
    advanced: {
      useSecureCookies: secure,
      cookiePrefix: "berth",
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax", path: "/" },
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;
