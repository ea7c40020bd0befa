// Route guards: preHandler hooks a route declares to say who may call it. Each puts what it
// established on the request, so a handler reads request.user, request.session and request.site
// instead of asking again, and a route's guard is visible where the route is declared.
//
// A request with `Authorization: Bearer` acts for the token's owner, but only on a route whose
// declaration says which permission it needs (`config: { token: "read" }`); every other route
// refuses a token (403 session_only), so a route added without thinking about tokens is closed to
// them. A token for one site reaches that site only: another site is the 404 of a foreign one, and
// routes that name no site refuse it (403), except the list of sites, which shows only its site,
// and the webhook routes, which keep to its site's webhooks, and GET /api/whoami, which tells the caller only about itself.
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from "fastify";
import { API_TOKEN_TEXT, type ApiTokenPermission } from "../../common/apiTokens";
import { SITE_TEXT } from "../../common/sites";
import type { AppContext } from "../context";
import type { ApiToken } from "../db/repositories/apiTokens";
import type { Site } from "../db/repositories/sites";
import { AppError } from "../errors";
import { authenticateApiToken, permits, RateLimitedError } from "../services/authenticateApiToken";
import { requireNotDeleted, requireSite } from "../services/siteAccess";
import { bearerSecret, isAdmin, requireSession, type RequestSession, type SessionUser } from "./session";

interface Granted {
  user?: SessionUser;
  session?: RequestSession["session"];
  site?: Site;
  apiToken?: ApiToken | null;
}

declare module "fastify" {
  interface FastifyRequest {
    /** The user the request acts for (signed in, or the owner of its API token), set by every guard. */
    readonly user: SessionUser;
    /** The session the request came with, set by every guard on a request without an API token. */
    readonly session: RequestSession["session"];
    /** The user's site named by :siteId, set by ownSite and ownSiteForChange. */
    readonly site: Site;
    /** The API token the request came with, or null for a session: set by every guard. */
    readonly apiToken: ApiToken | null;
  }
  interface FastifyContextConfig {
    /** The permission an API token needs to call this route. Without it the route refuses tokens. */
    token?: ApiTokenPermission;
    /** The route lists the user's sites and shows a one-site token only its site (it reads request.apiToken). */
    listsSites?: true;
    /** The route names no site but keeps a one-site token to its site's own things itself (webhooks: it reads request.apiToken). */
    scopesTokenSite?: true;
    /** The route tells the caller about itself (its user and token) and nothing about sites, so a one-site token may call it too. */
    aboutCaller?: true;
  }
}

const GRANTED = Symbol("granted");
type GrantedRequest = FastifyRequest & { [GRANTED]: Granted | null };

function grant(request: FastifyRequest, values: Granted): void {
  const target = request as GrantedRequest;
  target[GRANTED] = { ...target[GRANTED], ...values };
}

/**
 * Declares the fields the guards fill, once, on the app. Reading one on a route whose guards do
 * not set it is a mistake in the route, so it throws (a 500) instead of handing out undefined.
 */
export function decorateGuardedRequest(app: FastifyInstance): void {
  app.decorateRequest(GRANTED, null);
  for (const key of ["user", "session", "site", "apiToken"] as const) {
    app.decorateRequest(key, {
      getter(this: FastifyRequest) {
        const value = (this as GrantedRequest)[GRANTED]?.[key];
        if (value === undefined) throw new Error(`request.${key} read on ${this.routeOptions.url ?? this.url}, whose guards do not set it`);
        return value;
      },
    });
  }
}

export interface RouteGuards {
  /** A signed-in user: 401 'Not authenticated' without a session, 403 for a suspended account. */
  signedIn: preHandlerAsyncHookHandler;
  /** signedIn, then the user's site of :siteId: a missing site and someone else's are the same 404. */
  ownSite: preHandlerAsyncHookHandler[];
  /** ownSite, then 409 site_deleted while the site is deleted: every route that changes a site or anything under it. */
  ownSiteForChange: preHandlerAsyncHookHandler[];
  /** An admin. Everyone else, guests included, gets the 404 of an unknown route, so the admin API does not show that it exists. */
  admin: preHandlerAsyncHookHandler;
}

/**
 * What a guard establishes, kept on the guard function itself so that the API reference
 * (openapi/) reads who may call a route from the route's own preHandler, not from a second list:
 * identify: a session or a permitted token; site: the user's site of :siteId (404 otherwise);
 * notDeleted: 409 while that site is deleted; admin: an admin's session (404 otherwise).
 */
export type GuardKind = "identify" | "site" | "notDeleted" | "admin";
const GUARD_KIND = Symbol("guardKind");

function guardOf<F extends preHandlerAsyncHookHandler>(kind: GuardKind, handler: F): F {
  return Object.assign(handler, { [GUARD_KIND]: kind });
}

/** The kinds of the guards in a route's preHandler (a function, a list, or none). */
export function guardKinds(preHandler: unknown): Set<GuardKind> {
  const handlers: unknown[] = Array.isArray(preHandler) ? preHandler : [preHandler];
  const kinds = new Set<GuardKind>();
  for (const handler of handlers) {
    const kind = typeof handler === "function" ? (handler as { [GUARD_KIND]?: GuardKind })[GUARD_KIND] : undefined;
    if (kind) kinds.add(kind);
  }
  return kinds;
}

const sessionOnly = () => new AppError("session_only", 403, API_TOKEN_TEXT.sessionOnly);
const notPermitted = () => new AppError("token_not_permitted", 403, API_TOKEN_TEXT.notPermitted);
const outOfScope = () => new AppError("token_out_of_scope", 403, API_TOKEN_TEXT.outOfScope);
const siteNotFound = () => new AppError("site_not_found", 404, SITE_TEXT.notFoundTitle);

export function routeGuards(ctx: AppContext): RouteGuards {
  /** The token's owner, when the route accepts the token's permission; `names a site`: the route has :siteId. */
  const byToken = async (request: FastifyRequest, reply: FastifyReply, secret: string, namesSite: boolean) => {
    const { token: needs, listsSites, scopesTokenSite, aboutCaller } = request.routeOptions.config;
    if (!needs) throw sessionOnly();
    const found = await authenticateApiToken(ctx, secret, request.ip).catch((error: unknown) => {
      if (error instanceof RateLimitedError) void reply.header("retry-after", String(error.retryAfterSeconds));
      throw error;
    });
    if (!permits(found.token.permission, needs)) throw notPermitted();
    if (found.token.site_id !== null && !namesSite && !listsSites && !scopesTokenSite && !aboutCaller) throw outOfScope();
    grant(request, { user: found.user, apiToken: found.token });
  };
  const identify = (namesSite: boolean) =>
    guardOf("identify", async (request: FastifyRequest, reply: FastifyReply) => {
      const secret = bearerSecret(request);
      if (secret !== undefined) return byToken(request, reply, secret, namesSite);
      grant(request, { ...(await requireSession(ctx, request)), apiToken: null });
    });
  const signedIn = identify(false);
  const loadSite = guardOf("site", async (request: FastifyRequest) => {
    const { siteId } = request.params as { siteId?: unknown };
    if (typeof siteId !== "string") throw new Error(`${request.routeOptions.url ?? request.url}: a site guard on a route without :siteId`);
    const scope = request.apiToken?.site_id;
    if (scope && scope !== siteId) throw siteNotFound();
    grant(request, { site: await requireSite(ctx.db, request.user.id, siteId) });
  });
  const notDeleted = guardOf("notDeleted", async (request: FastifyRequest) => requireNotDeleted(request.site));
  // A token is never an admin: like a guest, it gets the 404 that hides the admin API.
  const admin = guardOf("admin", async (request: FastifyRequest) => {
    const found = bearerSecret(request) === undefined ? await requireSession(ctx, request).catch(() => undefined) : undefined;
    if (!found || !(await isAdmin(ctx, found.user))) throw new AppError("not_found", 404, "Not found");
    grant(request, { ...found, apiToken: null });
  });
  const siteUser = identify(true);
  return { signedIn, ownSite: [siteUser, loadSite], ownSiteForChange: [siteUser, loadSite, notDeleted], admin };
}
