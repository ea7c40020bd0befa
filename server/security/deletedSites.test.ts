// A deleted site (in its 14 days before the purge) can be read and restored, nothing else. The
// routes come from the app's own route table, so a new route under a site is covered without a
// word here: every non-GET route that acts on one site (under its id, or under the id of one of
// its custom domains), called by the owner on a deleted site with a body that would work on a
// live one, answers 409 site_deleted and changes no row and no blob.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { DRIVERS, getTestServer, type TestClient, type TestServer } from "../test/support";
import { setPlan, signedInClient } from "../test/factories";
import { sites } from "../db/schema";
import { snapshot } from "../test/security/snapshot";
import { siteKit, type Ids } from "../test/security/tenants";
import { collectRoutes, pathOf, send, shapeOf } from "../test/security/routeTable";

const ROUTES = await collectRoutes();

/** What a deleted site still accepts, and why. Everything else that changes it answers 409. */
const ALLOWED_ON_DELETED: Record<string, string> = {
  "POST /api/sites/:siteId/restore": "the way back: it is the one change a deleted site exists for",
};

/** Every route that changes one site: under its id, or under the id of one of its domains. */
const SITE_CHANGES = ROUTES.filter((r) => r.method !== "GET" && (r.params[0] === "siteId" || r.params[0] === "domainId"));
const REFUSED = SITE_CHANGES.filter((r) => !(r.key in ALLOWED_ON_DELETED));

describe("the routes that change a site", () => {
  it("are found in the app's route table, and every exception still exists", () => {
    const keys = SITE_CHANGES.map((r) => r.key);
    expect(keys).toEqual(expect.arrayContaining(["PATCH /api/sites/:siteId", "PUT /api/sites/:siteId/visibility", "DELETE /api/domains/:domainId"]));
    expect(REFUSED.length).toBeGreaterThanOrEqual(15);
    expect(Object.keys(ALLOWED_ON_DELETED).filter((key) => !keys.includes(key))).toEqual([]);
  });
});

describe.each(DRIVERS)("a deleted site (%s)", (driver) => {
  let server: TestServer;
  let client: TestClient;
  let ids: Ids;
  let before: typeof sites.$inferSelect;

  beforeAll(async () => {
    server = await getTestServer(driver);
    const owner = await signedInClient(server);
    await setPlan(server, owner.user.id, "pro");
    client = owner.client;
    ids = {
      ...(await siteKit(client, owner.user.id)),
      userId: owner.user.id,
      email: owner.user.email,
      sessionId: "",
      reservedSubdomain: "",
      tokenId: "",
      webhookId: "",
      deliveryId: "",
      userCode: "",
      messageId: "",
      upgradeRequestId: "",
      notificationId: "",
    };
    before = (await server.ctx.db.select().from(sites).where(eq(sites.id, ids.siteId)))[0]!;
    const deleted = await client.delete(`/api/sites/${ids.siteId}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
  });
  afterAll(() => server.close());

  it.each(REFUSED.map((r) => [r.key, r] as const))("%s answers 409 site_deleted and changes nothing", async (_key, route) => {
    const state = await snapshot(server);
    const url = pathOf(route, ids);
    const response = await send(client, route.method, url, shapeOf(route, ids));
    expect(response.statusCode, `${route.method} ${url} → ${response.body}`).toBe(409);
    expect(response.json().error).toMatchObject({ code: "site_deleted", message: expect.stringMatching(/marked for deletion/) });
    expect(await snapshot(server)).toEqual(state);
  });

  it("comes back on restore exactly as it was deleted, with none of the refused changes", async () => {
    const response = await client.post(`/api/sites/${ids.siteId}/restore`);
    expect(response.statusCode, response.body).toBe(200);
    const [after] = await server.ctx.db.select().from(sites).where(eq(sites.id, ids.siteId));
    const unchanged = ({ updated_at: _u, ...rest }: typeof before) => rest;
    expect(unchanged(after!)).toEqual(unchanged(before));
    expect(after!.visibility).toBe("public");
    // And it takes changes again.
    const renamed = await client.patch(`/api/sites/${ids.siteId}`, { name: "Back again" });
    expect(renamed.statusCode, renamed.body).toBe(200);
  });
});
