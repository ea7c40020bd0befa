// Mounts better-auth under /api/auth. Fastify hands over the raw body untouched; the client's
// address comes from request.ip (which honours BERTH_TRUST_PROXY), never from a client header.
import type { FastifyInstance, FastifyRequest } from "fastify";
import { CLIENT_IP_HEADER } from "../../auth/auth";
import { authCookieHeader, toHostPrefix } from "../../auth/cookies";
import type { AppContext } from "../../context";
import { API_TOKEN_TEXT } from "../../../common/apiTokens";
import { bearerSecret } from "../session";

function toWebRequest(request: FastifyRequest, appUrl: string, hostPrefixed: boolean): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || name === CLIENT_IP_HEADER) continue;
    if (name === "cookie") headers.set(name, authCookieHeader(String(value), hostPrefixed));
    else headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  headers.set(CLIENT_IP_HEADER, request.ip);
  const body = request.method === "GET" || request.method === "HEAD" ? undefined : (request.body as string | undefined);
  return new Request(new URL(request.url, appUrl), { method: request.method, headers, body: body || undefined });
}

export async function authRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const hostPrefixed = ctx.env.appUrl.startsWith("https://");
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "string", bodyLimit: 64 * 1024 }, (_req, body, done) => done(null, body));

  app.route({
    method: ["GET", "POST"],
    url: "/api/auth/*",
    async handler(request, reply) {
      // Signing in, passwords, two-factor and sessions are the account's own: never a token's.
      if (bearerSecret(request) !== undefined) {
        return reply.status(403).send({ error: { code: "session_only", message: API_TOKEN_TEXT.sessionOnly } });
      }
      const response = await ctx.auth.handler(toWebRequest(request, ctx.env.appUrl, hostPrefixed));
      reply.status(response.status);
      response.headers.forEach((value, name) => {
        if (name !== "set-cookie") reply.header(name, value);
      });
      const cookies = response.headers.getSetCookie();
      if (cookies.length > 0) reply.header("set-cookie", hostPrefixed ? cookies.map(toHostPrefix) : cookies);
      return reply.send(response.body ? Buffer.from(await response.arrayBuffer()) : null);
    },
  });
}
