import type { FastifyRequest } from "fastify";
import { fromHostPrefix } from "../auth/cookies";
import type { AppContext } from "../context";
import { notAuthenticated } from "../errors";

export type SessionUser = { id: string; email: string; name: string; createdAt: Date; updatedAt: Date };

/** The signed-in user of this request, or a 401 'Not authenticated'. */
export async function requireUser(ctx: AppContext, request: FastifyRequest): Promise<SessionUser> {
  const headers = new Headers();
  const cookie = request.headers.cookie;
  if (cookie) headers.set("cookie", ctx.env.appUrl.startsWith("https://") ? fromHostPrefix(cookie) : cookie);
  const session = await ctx.auth.api.getSession({ headers });
  if (!session) throw notAuthenticated();
  return session.user;
}
