// Route guards: preHandler hooks a route declares to say who may call it. Each puts what it
// established on the request, so a handler reads request.user, request.session and request.site
// instead of asking again, and a route's guard is visible where the route is declared.
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from "fastify";
import type { AppContext } from "../context";
import type { SiteSummary } from "../db/repositories/sites";
import { AppError } from "../errors";
import { requireNotDeleted, requireSite } from "../services/siteAccess";
import { isAdmin, requireSession, type RequestSession, type SessionUser } from "./session";

interface Granted {
  user?: SessionUser;
  session?: RequestSession["session"];
  site?: SiteSummary;
}

declare module "fastify" {
  interface FastifyRequest {
    /** The signed-in user, set by every guard. */
    readonly user: SessionUser;
    /** The session the request came with, set by every guard. */
    readonly session: RequestSession["session"];
    /** The user's site named by :siteId, set by ownSite and ownSiteForChange. */
    readonly site: SiteSummary;
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
  for (const key of ["user", "session", "site"] as const) {
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

export function routeGuards(ctx: AppContext): RouteGuards {
  const signedIn = async (request: FastifyRequest) => {
    grant(request, await requireSession(ctx, request));
  };
  const loadSite = async (request: FastifyRequest) => {
    const { siteId } = request.params as { siteId?: unknown };
    if (typeof siteId !== "string") throw new Error(`${request.routeOptions.url ?? request.url}: a site guard on a route without :siteId`);
    grant(request, { site: await requireSite(ctx.db, request.user.id, siteId) });
  };
  const notDeleted = async (request: FastifyRequest) => requireNotDeleted(request.site);
  const admin = async (request: FastifyRequest) => {
    const found = await requireSession(ctx, request).catch(() => undefined);
    if (!found || !(await isAdmin(ctx, found.user))) throw new AppError("not_found", 404, "Not found");
    grant(request, found);
  };
  return { signedIn, ownSite: [signedIn, loadSite], ownSiteForChange: [signedIn, loadSite, notDeleted], admin };
}
