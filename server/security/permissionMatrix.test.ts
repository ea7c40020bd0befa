// The permission matrix, generated from the routes the app registers: every route with a path
// parameter is called as a guest, as another user, as a banned user and as its owner. The others
// get 401, 404 and 403 and change nothing: every table and the blob store are compared before and
// after. The owner's calls carry another user's ids in the query and the body, and fields a
// client must never set (user_id, status, plan, is_admin…); they change nothing of that user and
// are ignored. Routes without parameters answer guests 401 unless listed as public.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { DRIVERS, getTestServer, type TestServer } from "../test/support";
import { buildUser } from "../test/factories";
import { profiles, sites, users } from "../db/schema";
import { snapshot, snapshotOfUser, type Snapshot } from "../test/security/snapshot";
import { markerOf, ownerCallIds, setBanned, signIn, tenant, TENANT_ENV, type Ids, type SiteKit, type Tenant } from "../test/security/tenants";
import {
  collectRoutes,
  hasBody,
  isAdminRoute,
  pathOf,
  PUBLIC_ROUTES,
  QUERIES,
  send,
  shapeOf,
  SHAPES,
  AUTH_WRITES,
  type Route,
  type Shape,
  withQuery,
} from "../test/security/routeTable";

const ROUTES = await collectRoutes();
const WITH_PARAMS = ROUTES.filter((r) => r.params.length > 0);
const WITHOUT_PARAMS = ROUTES.filter((r) => r.params.length === 0);
/** The owner's calls: every route with parameters, and every write without (the account's own). */
const OWNER_CALLS = ROUTES.filter((r) => !PUBLIC_ROUTES.has(r.key) && (r.params.length > 0 || hasBody(r.method) || r.method === "DELETE"));
const ADMIN_EMAIL = "operator.admin@security.test";

/** Fields no client may set, added to every body and query of the owner's calls. */
const massAssigned = (foreign: Ids): Record<string, unknown> => ({
  user_id: foreign.userId,
  userId: foreign.userId,
  id: foreign.siteId,
  site_id: foreign.siteId,
  siteId: foreign.siteId,
  deployment_id: foreign.deploymentId,
  file_id: foreign.fileId,
  link_id: foreign.linkId,
  domain_id: foreign.domainId,
  session_id: foreign.sessionId,
  status: "deleted",
  is_deleted: true,
  // The opposite of the caller's plan (Pro), so that taking it would show.
  plan: "free",
  is_admin: true,
  isAdmin: true,
});

/** The shape with the foreign ids added; the route's own fields win. Multipart keeps to its field limit. */
function withForeignFields(shape: Shape, foreign: Ids): Shape {
  const extra = massAssigned(foreign);
  if (shape.form) {
    const fields: Record<string, string> = {
      user_id: foreign.userId,
      site_id: foreign.siteId,
      status: "deleted",
      plan: "free",
      is_admin: "true",
      id: foreign.siteId,
    };
    return { form: { fields: { ...fields, ...shape.form.fields }, file: shape.form.file } };
  }
  if (shape.json) return { json: { ...extra, ...shape.json } };
  // Bytes (a deploy's files) have no fields; the foreign ids ride in the query.
  return shape;
}

const foreignQuery = (foreign: Ids) => ({
  user_id: foreign.userId,
  userId: foreign.userId,
  site_id: foreign.siteId,
  siteId: foreign.siteId,
  id: foreign.siteId,
});

/**
 * Every table and blob, less the rate-limit counters: a wrong guess (a CLI sign-in code) is
 * counted against the one who guessed, which is the refusal working, not a change to anyone's data.
 */
async function state(server: TestServer): Promise<Snapshot> {
  const { rate_limits: _counters, ...rest } = await snapshot(server);
  return rest;
}

/** Things of `ids` that no answer to someone else may contain. */
const secretsOf = (ids: Ids) => [
  ids.userCode,
  markerOf(ids.userId),
  ids.email,
  ids.hostname,
  ids.siteId,
  ids.fileId,
  ids.linkId,
  ids.domainId,
  ids.sessionId,
  ids.tokenId,
  ids.webhookId,
  ids.deliveryId,
  ids.deployId,
];

describe("the route table", () => {
  it("has a decision for every route", () => {
    const keys = new Set(ROUTES.map((r) => r.key));
    expect(
      [...PUBLIC_ROUTES].filter((key) => !keys.has(key)),
      "public routes that no longer exist",
    ).toEqual([]);
    expect(
      Object.keys(SHAPES).filter((key) => !keys.has(key)),
      "bodies of routes that no longer exist",
    ).toEqual([]);
    expect(
      Object.keys(QUERIES).filter((key) => !keys.has(key)),
      "queries of routes that no longer exist",
    ).toEqual([]);
    const undecided = ROUTES.filter((r) => hasBody(r.method) && !r.url.includes("*") && !SHAPES[r.key]).map((r) => r.key);
    expect(undecided, "write routes without a body in SHAPES").toEqual([]);
    expect(Object.keys(AUTH_WRITES).length).toBeGreaterThan(0);
    // Sanity: the hook saw the routes, so the matrix below cannot pass by being empty.
    expect(WITH_PARAMS.length).toBeGreaterThanOrEqual(25);
    expect(keys).toContain("DELETE /api/sites/:siteId/files/:fileId");
  });
});

describe.each(DRIVERS)("permission matrix (%s)", (driver) => {
  let server: TestServer;
  let owner: Tenant;
  let stranger: Tenant;
  let banned: Tenant;
  let admin: Tenant["client"];

  beforeAll(async () => {
    server = await getTestServer(driver, { env: { ...TENANT_ENV, BERTH_ADMIN_EMAILS: ADMIN_EMAIL } });
    owner = await tenant(server);
    stranger = await tenant(server);
    banned = await tenant(server);
    await setBanned(server, banned.user.id, true);
    admin = await signIn(server, await buildUser(server, { email: ADMIN_EMAIL }));
  });
  afterAll(() => server.close());

  /** The answer a caller who may not use the route gets. */
  const refusal = (route: Route, role: "guest" | "stranger" | "banned") =>
    isAdminRoute(route) ? 404 : { guest: 401, stranger: 404, banned: 403 }[role];

  it.each(WITH_PARAMS.map((r) => [r.key, r] as const))(
    "%s: a guest, another user and a banned user are refused and change nothing",
    async (_key, route) => {
      const victim = owner.ids;
      const callers = [
        { role: "guest" as const, client: server.client(), own: undefined },
        { role: "stranger" as const, client: stranger.client, own: stranger.ids },
        { role: "banned" as const, client: banned.client, own: banned.ids },
      ];
      let before = await state(server);
      for (const { role, client, own } of callers) {
        // The victim's ids everywhere; then the caller's own first id (their site, or themselves
        // for an admin route) with the victim's ids for the rest, where a route checks the parent
        // and forgets to scope the child.
        const variants = [{ name: "the victim's ids", url: pathOf(route, victim) }];
        if (own && (route.params.length > 1 || isAdminRoute(route)))
          variants.push({ name: "own first id, victim's others", url: pathOf(route, victim, own) });
        for (const variant of variants) {
          const label = `${role}, ${variant.name}: ${route.method} ${variant.url}`;
          const response = await send(client, route.method, variant.url, shapeOf(route, victim));
          expect(response.statusCode, `${label} → ${response.body}`).toBe(refusal(route, role));
          for (const secret of secretsOf(victim)) expect(response.body, label).not.toContain(secret);
          const after = await state(server);
          expect(after, label).toEqual(before);
          before = after;
        }
      }
    },
  );

  it.each(WITHOUT_PARAMS.filter((r) => !PUBLIC_ROUTES.has(r.key)).map((r) => [r.key, r] as const))("%s: a guest gets 401", async (_key, route) => {
    const before = await snapshot(server);
    const response = await send(server.client(), route.method, route.url, hasBody(route.method) ? shapeOf(route, owner.ids) : {});
    expect(response.statusCode, response.body).toBe(isAdminRoute(route) ? 404 : 401);
    expect(await snapshot(server)).toEqual(before);
  });

  it.each(ROUTES.filter((r) => PUBLIC_ROUTES.has(r.key) && r.method === "GET" && !r.url.includes("*")).map((r) => [r.key, r] as const))(
    "%s: public, a guest is answered",
    async (_key, route) => {
      const response = await server.client().get(route.url);
      expect(response.statusCode, response.body).not.toBe(401);
      expect(response.statusCode).toBeLessThan(500);
    },
  );

  /** The things one owner call works on (see ownerCallIds); an admin route is called by the admin, on a new user. */
  const shared: { kit?: SiteKit } = {};
  async function idsForOwnerCall(route: Route): Promise<{ ids: Ids; caller: Tenant["client"] }> {
    const ids = await ownerCallIds(server, owner, route, shared);
    if (isAdminRoute(route)) return { ids: { ...ids, userId: (await buildUser(server)).id }, caller: admin };
    return { ids, caller: owner.client };
  }

  const rowOf = async (siteId: string) => (await server.ctx.db.select().from(sites).where(eq(sites.id, siteId)))[0];
  const profileOf = async (userId: string) => (await server.ctx.db.select().from(profiles).where(eq(profiles.id, userId)))[0]!;

  it.each(OWNER_CALLS.map((r) => [r.key, r] as const))(
    "%s: the owner may; another user's ids in the query and body, and user_id/status/plan/is_admin, are ignored",
    async (_key, route) => {
      const foreign = stranger.ids;
      const { ids, caller } = await idsForOwnerCall(route);
      const siteBefore = route.params.includes("siteId") ? await rowOf(ids.siteId) : undefined;
      const callerId = caller === admin ? (await server.ctx.db.select().from(users).where(eq(users.email, ADMIN_EMAIL)))[0]!.id : owner.user.id;
      const callerProfile = await profileOf(callerId);
      const foreignBefore = await snapshotOfUser(server, foreign.userId);

      const url = withQuery(pathOf(route, ids), foreignQuery(foreign));
      const response = await send(caller, route.method, url, withForeignFields(shapeOf(route, ids), foreign));
      expect(response.statusCode, `${route.method} ${url} → ${response.body}`).toBeGreaterThanOrEqual(200);
      expect(response.statusCode, `${route.method} ${url} → ${response.body}`).toBeLessThan(300);

      expect(await snapshotOfUser(server, foreign.userId)).toEqual(foreignBefore);
      for (const secret of secretsOf(foreign)) expect(response.body).not.toContain(secret);
      const profile = await profileOf(callerId);
      expect({ plan: profile.plan, is_admin: profile.is_admin }).toEqual({ plan: callerProfile.plan, is_admin: callerProfile.is_admin });
      if (siteBefore) {
        const site = await rowOf(ids.siteId);
        const status = { "DELETE /api/sites/:siteId": "deleted", "POST /api/sites/:siteId/restore": "active" }[route.key] ?? siteBefore.status;
        expect({ user_id: site?.user_id, status: site?.status }).toEqual({ user_id: owner.user.id, status });
      }
    },
  );

  it("refuses another user's subdomain, reserved or bound, in the wizard's body", async () => {
    // The stranger's reservation: the owner's own calls above have used up the owner's.
    for (const subdomain of [stranger.ids.reservedSubdomain, stranger.ids.subdomain]) {
      const before = await snapshotOfUser(server, stranger.user.id);
      const response = await send(owner.client, "POST", "/api/sites", SHAPES["POST /api/sites"]!({ ...owner.ids, reservedSubdomain: subdomain }));
      expect(response.statusCode, response.body).toBe(409);
      expect(await snapshotOfUser(server, stranger.user.id)).toEqual(before);
    }
  });

  it("takes none of plan, role, ban or verification from better-auth's sign-up and update-user bodies", async () => {
    const email = `mass.${Date.now()}@example.com`;
    const signUp = await server.client().post("/api/auth/sign-up/email", {
      email,
      password: "correct horse battery",
      name: "Mass",
      emailVerified: true,
      plan: "pro",
      is_admin: true,
      isAdmin: true,
      role: "admin",
      banned: false,
      twoFactorEnabled: true,
      id: owner.user.id,
    });
    expect(signUp.statusCode, signUp.body).toBe(200);
    const [created] = await server.ctx.db.select().from(users).where(eq(users.email, email));
    expect(created).toMatchObject({ emailVerified: false, twoFactorEnabled: false });
    expect(created!.id).not.toBe(owner.user.id);
    expect(await profileOf(created!.id)).toMatchObject({ plan: "free", is_admin: false, banned_at: null });

    const before = await snapshotOfUser(server, owner.user.id);
    const update = await stranger.client.post("/api/auth/update-user", {
      name: "Renamed",
      email: owner.user.email,
      emailVerified: false,
      id: owner.user.id,
      userId: owner.user.id,
      twoFactorEnabled: false,
      plan: "free",
      is_admin: true,
    });
    expect(update.statusCode).toBeLessThan(500);
    const [self] = await server.ctx.db.select().from(users).where(eq(users.id, stranger.user.id));
    expect(self).toMatchObject({ email: stranger.user.email, emailVerified: true });
    expect(await profileOf(stranger.user.id)).toMatchObject({ plan: "pro", is_admin: false });
    expect(await snapshotOfUser(server, owner.user.id)).toEqual(before);
  });
});
