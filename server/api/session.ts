import type { FastifyRequest } from "fastify";
import { authCookieHeader } from "../auth/cookies";
import type { AppContext } from "../context";
import { AppError, notAuthenticated } from "../errors";
import { getProfileForUser, isUserBanned } from "../db/repositories/profiles";
import { SESSION_TOUCH_MINUTES, touchSession } from "../db/repositories/accountSessions";
import { ACCOUNT_TEXT } from "../../common/account";

export type SessionUser = {
  id: string;
  email: string;
  name: string;
  createdAt: Date;
  updatedAt: Date;
  /** better-auth's two-factor plugin: true once an authenticator app is set up. */
  twoFactorEnabled?: boolean | null;
};

/** The session a request came with. Its token stays on the server. */
export interface RequestSession {
  user: SessionUser;
  session: { id: string; token: string; updatedAt: Date };
}

export const accountSuspended = () => new AppError("account_suspended", 403, ACCOUNT_TEXT.suspended);

/**
 * The signed-in user of this request and their session: 401 'Not authenticated' without one,
 * 403 for a suspended account. Records the session's last activity (at most every few minutes).
 * Routes declare it through the guards of routeGuards.ts.
 */
export async function requireSession(ctx: AppContext, request: FastifyRequest): Promise<RequestSession> {
  const headers = new Headers();
  const cookie = request.headers.cookie;
  if (cookie) headers.set("cookie", authCookieHeader(cookie, ctx.env.appUrl.startsWith("https://")));
  const found = await ctx.auth.api.getSession({ headers });
  if (!found) throw notAuthenticated();
  if (await isUserBanned(ctx.db, found.user.id)) throw accountSuspended();
  const { id, token, updatedAt } = found.session;
  if (Date.now() - updatedAt.getTime() >= SESSION_TOUCH_MINUTES * 60_000) await touchSession(ctx.db, token);
  return { user: found.user, session: { id, token, updatedAt } };
}

/**
 * The secret of an `Authorization: Bearer …` header, or undefined when the request has none (other
 * schemes included): such a request is authenticated by its API token, never by a cookie.
 */
export function bearerSecret(request: Pick<FastifyRequest, "headers">): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? "");
  return match?.[1];
}

/** Admins: the e-mails in BERTH_ADMIN_EMAILS, and users an admin promoted. */
export async function isAdmin(ctx: AppContext, user: Pick<SessionUser, "id" | "email">): Promise<boolean> {
  if (ctx.env.adminEmails.has(user.email.toLowerCase())) return true;
  return (await getProfileForUser(ctx.db, user.id))?.is_admin ?? false;
}
