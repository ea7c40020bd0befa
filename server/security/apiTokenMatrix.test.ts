// The route table's token column, generated from the routes the app registers: every route that
// is not public is called with the owner's API token of each permission. Where the permission
// covers the route (TOKEN_PERMISSIONS), the token does what the owner's session would (2xx), and
// with another user's ids it gets that user's 404 and changes nothing; everywhere else it gets 403
// (the admin API: 404) and changes nothing. A token for one site never reaches the owner's other
// sites (nor their webhooks), and a revoked or expired token, or a banned owner's, is refused on
// every route. A new route refuses tokens until its declaration says otherwise, and this table
// says the same.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { API_TOKEN_PERMISSIONS, type ApiTokenPermission } from "../../common/apiTokens";
import { apiTokens } from "../db/schema";
import { permits } from "../services/authenticateApiToken";
import { createToken, tokenClient } from "../test/apiTokens";
import { DRIVERS, getTestServer, type TestServer } from "../test/support";
import { snapshot, type Snapshot } from "../test/security/snapshot";
import { markerOf, ownerCallIds, setBanned, siteKit, tenant, TENANT_ENV, type Ids, type SiteKit, type Tenant } from "../test/security/tenants";
import {
  collectRoutes,
  isAdminRoute,
  OPERATOR_TOKEN_ROUTES,
  pathOf,
  PUBLIC_ROUTES,
  send,
  shapeOf,
  SITE_LIST_ROUTE,
  WHOAMI_ROUTE,
  TOKEN_PERMISSIONS,
  TOKEN_SITE_SCOPED,
  WEBHOOK_LIST_ROUTE,
  type Route,
} from "../test/security/routeTable";

const ROUTES = await collectRoutes();
const GUARDED = ROUTES.filter((r) => !PUBLIC_ROUTES.has(r.key));
const TOKEN_ROUTES = GUARDED.filter((r) => TOKEN_PERMISSIONS[r.key] !== undefined);
const CASES = GUARDED.flatMap((route) => API_TOKEN_PERMISSIONS.map((permission) => [route.key, permission, route] as const));

/** A token's own traces (its last use, its rate-limit count) are not changes the caller made. */
function withoutTokenTraces(state: Snapshot): Snapshot {
  const { api_tokens: _tokens, rate_limits: _limits, ...rest } = state;
  return rest;
}

const idsOf = (ids: Ids) => [
  markerOf(ids.userId),
  ids.email,
  ids.hostname,
  ids.siteId,
  ids.fileId,
  ids.linkId,
  ids.domainId,
  ids.sessionId,
  ids.webhookId,
  ids.deliveryId,
  ids.deployId,
];

describe("the token column of the route table", () => {
  it("names only routes that exist, never a public, account or admin one", () => {
    const keys = new Set(GUARDED.map((r) => r.key));
    expect(Object.keys(TOKEN_PERMISSIONS).filter((key) => !keys.has(key))).toEqual([]);
    expect(Object.keys(TOKEN_PERMISSIONS).filter((key) => /\/api\/(me|tokens|admin|auth|events)\b/.test(key))).toEqual([]);
    expect(TOKEN_ROUTES.length).toBeGreaterThanOrEqual(30);
    expect(GUARDED.length - TOKEN_ROUTES.length).toBeGreaterThanOrEqual(15);
  });
});

describe.each(DRIVERS)("API token matrix (%s)", (driver) => {
  let server: TestServer;
  let owner: Tenant;
  let stranger: Tenant;
  let banned: Tenant;
  const secrets = {} as Record<ApiTokenPermission, string>;
  let oneSite: { secret: string; kit: SiteKit };
  let lapsed: { revoked: string; expired: string; banned: string };

  beforeAll(async () => {
    server = await getTestServer(driver, { env: TENANT_ENV });
    owner = await tenant(server);
    stranger = await tenant(server);
    banned = await tenant(server);
    for (const permission of API_TOKEN_PERMISSIONS) secrets[permission] = (await createToken(owner.client, permission)).secret;
    const kit = await siteKit(owner.client, owner.user.id);
    oneSite = { secret: (await createToken(owner.client, "full", { siteId: kit.siteId })).secret, kit };

    const revoked = await createToken(owner.client, "full");
    expect((await owner.client.delete(`/api/tokens/${revoked.id}`)).statusCode).toBe(204);
    const expired = await createToken(owner.client, "full");
    await server.ctx.db
      .update(apiTokens)
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where(eq(apiTokens.id, expired.id));
    const bannedToken = await createToken(banned.client, "full");
    await setBanned(server, banned.user.id, true);
    lapsed = { revoked: revoked.secret, expired: expired.secret, banned: bannedToken.secret };
  });
  afterAll(() => server.close());

  const state = async () => withoutTokenTraces(await snapshot(server));

  /** The owner's ids for a call that goes through (see ownerCallIds). */
  const shared: { kit?: SiteKit } = {};
  const idsForCall = (route: Route) => ownerCallIds(server, owner, route, shared);

  it.each(CASES)("%s with a %s token", async (_key, permission, route) => {
    const token = tokenClient(server, secrets[permission]);
    const needs = TOKEN_PERMISSIONS[route.key];
    if (needs === undefined || !permits(permission, needs)) {
      const before = await state();
      const url = pathOf(route, owner.ids);
      const response = await send(token, route.method, url, shapeOf(route, owner.ids));
      const label = `${route.method} ${url} → ${response.body}`;
      if (isAdminRoute(route)) expect(response.statusCode, label).toBe(404);
      else if (OPERATOR_TOKEN_ROUTES.has(route.key)) expect(response.statusCode, label).toBe(401);
      else {
        expect(response.statusCode, label).toBe(403);
        expect(response.json<{ error: { code: string } }>().error.code, label).toBe(needs === undefined ? "session_only" : "token_not_permitted");
      }
      expect(await state(), label).toEqual(before);
      return;
    }

    // Another user's objects: that user's 404, whichever ids are theirs, and nothing changes.
    if (route.params.length > 0) {
      const variants = [pathOf(route, stranger.ids)];
      if (route.params.length > 1) variants.push(pathOf(route, stranger.ids, owner.ids));
      for (const url of variants) {
        const before = await state();
        const response = await send(token, route.method, url, shapeOf(route, stranger.ids));
        expect(response.statusCode, `${route.method} ${url} → ${response.body}`).toBe(404);
        for (const secret of idsOf(stranger.ids)) expect(response.body).not.toContain(secret);
        expect(await state()).toEqual(before);
      }
    }

    // The owner's own: as the owner's session would.
    const ids = await idsForCall(route);
    const url = pathOf(route, ids);
    const response = await send(token, route.method, url, shapeOf(route, ids));
    expect(response.statusCode, `${route.method} ${url} → ${response.body}`).toBeGreaterThanOrEqual(200);
    expect(response.statusCode, `${route.method} ${url} → ${response.body}`).toBeLessThan(300);
    for (const secret of idsOf(stranger.ids)) expect(response.body).not.toContain(secret);
  });

  it.each(TOKEN_ROUTES.map((r) => [r.key, r] as const))("%s: a one-site token never reaches the owner's other sites", async (_key, route) => {
    const token = tokenClient(server, oneSite.secret);
    const before = await state();
    const url = pathOf(route, owner.ids);
    const response = await send(token, route.method, url, shapeOf(route, owner.ids));
    const label = `${route.method} ${url} → ${response.body}`;
    if (route.key === SITE_LIST_ROUTE) {
      expect(response.statusCode, label).toBe(200);
      expect(response.json<{ sites: { id: string }[] }>().sites.map((s) => s.id)).toEqual([oneSite.kit.siteId]);
    } else if (route.key === WEBHOOK_LIST_ROUTE) {
      expect(response.statusCode, label).toBe(200);
      expect(response.json<{ webhooks: { site: { id: string } | null }[] }>().webhooks.filter((w) => w.site?.id !== oneSite.kit.siteId)).toEqual([]);
    } else if (route.key === WHOAMI_ROUTE) {
      expect(response.statusCode, label).toBe(200);
      expect(response.json<{ token: { site: { id: string } } }>().token.site.id).toBe(oneSite.kit.siteId);
    } else if (route.params.includes("siteId") || TOKEN_SITE_SCOPED.has(route.key)) {
      expect(response.statusCode, label).toBe(404);
    } else {
      expect(response.statusCode, label).toBe(403);
      expect(response.json<{ error: { code: string } }>().error.code).toBe("token_out_of_scope");
    }
    for (const secret of [
      owner.ids.siteId,
      owner.ids.fileId,
      owner.ids.linkId,
      owner.ids.domainId,
      owner.ids.hostname,
      owner.ids.webhookId,
      owner.ids.deployId,
    ])
      expect(response.body, label).not.toContain(secret);
    expect(await state(), label).toEqual(before);
    // Its own site it does reach.
    if (route.method === "GET" && route.params.includes("siteId")) {
      const own = await send(token, "GET", pathOf(route, { ...owner.ids, ...oneSite.kit }), {});
      expect(own.statusCode, own.body).toBe(200);
    }
  });

  it.each(TOKEN_ROUTES.map((r) => [r.key, r] as const))("%s: a revoked or expired token, or a banned owner's, is refused", async (_key, route) => {
    const before = await state();
    const cases = [
      { secret: lapsed.revoked, ids: owner.ids, status: 401, code: "invalid_token" },
      { secret: lapsed.expired, ids: owner.ids, status: 401, code: "expired_token" },
      { secret: lapsed.banned, ids: banned.ids, status: 403, code: "account_suspended" },
    ];
    for (const { secret, ids, status, code } of cases) {
      const url = pathOf(route, ids);
      const response = await send(tokenClient(server, secret), route.method, url, shapeOf(route, ids));
      expect(response.statusCode, `${code}: ${route.method} ${url} → ${response.body}`).toBe(status);
      expect(response.json<{ error: { code: string } }>().error.code).toBe(code);
    }
    expect(await state()).toEqual(before);
  });
});
