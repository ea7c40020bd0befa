import type { FastifyReply, FastifyRequest } from "fastify";
import { API_TOKEN_TEXT } from "../../common/apiTokens";
import { bearerSecret } from "./session";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses state-changing API calls that come from another origin, sites on the sites domain
 * included. better-auth checks Origin only when cookies are present, so sign-in itself (login CSRF) is covered here too.
 * Every path of the dashboard host is covered, not only URLs spelt "/api/…": the router decodes
 * percent-escapes, so "/%61pi/sites/…" reaches the same handler as "/api/sites/…".
 *
 * An API token request carries no cookie, so a forged cross-site request gains nothing from the
 * browser: it is exempt, but only without a Cookie header. A request with both is refused (400)
 * whatever its method: which of the two it acts as would be a guess, and a page that can make a
 * browser send both must not get the exemption.
 */
export function rejectCrossSiteWrites(appUrl: string) {
  const appOrigin = new URL(appUrl).origin;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (bearerSecret(request) !== undefined) {
      if (request.headers.cookie === undefined) return;
      return reply.status(400).send({ error: { code: "ambiguous_credentials", message: API_TOKEN_TEXT.ambiguousCredentials } });
    }
    if (SAFE_METHODS.has(request.method)) return;
    const origin = request.headers.origin;
    const fetchSite = request.headers["sec-fetch-site"];
    const crossSite = (origin !== undefined && origin !== appOrigin) || fetchSite === "cross-site" || fetchSite === "same-site";
    if (crossSite) {
      return reply.status(403).send({ error: { code: "cross_site_request", message: "Cross-site requests are not allowed" } });
    }
  };
}

const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "object-src 'none'",
].join("; ");

export async function securityHeaders(_request: FastifyRequest, reply: FastifyReply, payload: unknown) {
  reply.header("x-content-type-options", "nosniff");
  reply.header("referrer-policy", "strict-origin-when-cross-origin");
  reply.header("x-frame-options", "DENY");
  reply.header("content-security-policy", CSP);
  return payload;
}
