// The share-link and visibility API: every route as a guest (401), another user (404, nothing
// changes), a Free owner (403 on creating, restoring and going private; the rest allowed) and a
// Pro owner.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { rowsOf } from "../../db/rows";
import { shareLinkOpens, shareLinks, sites } from "../../db/schema";
import { insertShareLink } from "../../db/repositories/shareLinks";
import { linkIdOfToken } from "../../sites/shareTokens";
import { DRIVERS, getTestServer, type TestClient, type TestServer } from "../../test/support";
import { ownerWithSite as ownerWithSiteOf, setPlan, signedInClient } from "../../test/factories";
import { createSiteWith, htmlFile } from "../../test/sites";
import { SHARE_LINK_TEXT, type ShareLinkResponse } from "../../../common/shareLinks";
import type { SiteResponse } from "../../../common/sites";

interface Fixture {
  site: SiteResponse;
  linkId: string;
}

type Call = (client: TestClient, f: Fixture) => ReturnType<TestClient["request"]>;

const inAnHour = () => new Date(Date.now() + 60 * 60 * 1000).toISOString();

const ROUTES: [string, Call, number][] = [
  ["GET links", (c, f) => c.get(`/api/sites/${f.site.id}/share-links`), 200],
  ["POST link", (c, f) => c.post(`/api/sites/${f.site.id}/share-links`, { name: "For Ann", maxViews: 3 }), 201],
  ["PATCH rename", (c, f) => c.patch(`/api/sites/${f.site.id}/share-links/${f.linkId}`, { name: "Renamed" }), 200],
  ["PATCH revoke", (c, f) => c.patch(`/api/sites/${f.site.id}/share-links/${f.linkId}`, { revoked: true }), 200],
  ["DELETE link", (c, f) => c.delete(`/api/sites/${f.site.id}/share-links/${f.linkId}`), 204],
  ["GET opens", (c, f) => c.get(`/api/sites/${f.site.id}/share-links/${f.linkId}/opens`), 200],
  ["PUT visibility private", (c, f) => c.request("PUT", `/api/sites/${f.site.id}/visibility`, { json: { visibility: "private" } }), 200],
  ["PUT visibility public", (c, f) => c.request("PUT", `/api/sites/${f.site.id}/visibility`, { json: { visibility: "public" } }), 200],
];

describe.each(DRIVERS)("share links and visibility API (%s)", (driver) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer(driver);
  });
  afterAll(() => server.close());

  const ownerWithSite = (plan: "free" | "pro") => ownerWithSiteOf(server, plan, [{ name: "index.html", data: "<h1>Shared</h1>" }]);

  /** A link made directly in the database, as one made while the owner was on Pro. */
  const linkFor = async (userId: string, siteId: string, values: Partial<Parameters<typeof insertShareLink>[1]> = {}) =>
    insertShareLink(server.ctx.db, {
      site_id: siteId,
      user_id: userId,
      name: "Direct",
      expires_at: null,
      password_hash: null,
      max_views: null,
      ...values,
    });

  async function snapshot(): Promise<string> {
    const parts: string[] = [];
    for (const table of ["sites", "share_links", "share_link_opens"]) {
      parts.push(JSON.stringify(rowsOf(await server.ctx.db.execute(sql.raw(`select * from ${table} order by 1`)))));
    }
    return parts.join("\n");
  }

  async function fixtureOf(plan: "free" | "pro") {
    const owner = await ownerWithSite(plan);
    const link = await linkFor(owner.user.id, owner.site.id);
    return { ...owner, fixture: { site: owner.site, linkId: link.id } };
  }

  it.each(ROUTES)("%s: a guest gets 401", async (_name, call) => {
    const { fixture } = await fixtureOf("pro");
    expect((await call(server.client(), fixture)).statusCode).toBe(401);
  });

  it.each(ROUTES)("%s: another user, even on Pro, gets 404 and changes nothing", async (_name, call) => {
    const { fixture } = await fixtureOf("pro");
    const other = await signedInClient(server);
    await setPlan(server, other.user.id, "pro");
    const before = await snapshot();
    const response = await call(other.client, fixture);
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe("site_not_found");
    expect(await snapshot()).toBe(before);
  });

  it.each(ROUTES)("%s: a Pro owner may", async (_name, call, status) => {
    const { client, fixture } = await fixtureOf("pro");
    const response = await call(client, fixture);
    expect(response.statusCode, response.body).toBe(status);
  });

  it.each(ROUTES.map(([name, call, status]) => [name, call, name === "POST link" || name === "PUT visibility private" ? 403 : status] as const))(
    "%s: a Free owner may, except to create a link or go private (403)",
    async (name, call, status) => {
      const { client, fixture } = await fixtureOf("free");
      const before = await snapshot();
      const response = await call(client, fixture);
      expect(response.statusCode, response.body).toBe(status);
      if (status === 403) {
        expect(response.json().error).toEqual({
          code: "pro_required",
          message:
            name === "POST link"
              ? "Share links are a Pro feature. Upgrade to Pro to share this site privately."
              : "Private sites are a Pro feature. Upgrade to Pro to make this site private.",
        });
        expect(await snapshot()).toBe(before);
      }
    },
  );

  it("creates a link for a Pro owner with every option; the URL carries a token that names it; the hash never leaves", async () => {
    const { client, site } = await ownerWithSite("pro");
    const expiresAt = inAnHour();
    const response = await client.post(`/api/sites/${site.id}/share-links`, {
      name: "  For the board  ",
      expiresAt,
      password: "open sesame",
      maxViews: 2,
    });
    expect(response.statusCode).toBe(201);
    const link = response.json<ShareLinkResponse>();
    expect(link).toMatchObject({
      site_id: site.id,
      name: "For the board",
      state: "active",
      expires_at: new Date(expiresAt).toISOString(),
      has_password: true,
      max_views: 2,
      views: 0,
      revoked_at: null,
    });
    expect(response.body).not.toContain("scrypt");
    expect(response.body).not.toContain("open sesame");
    expect(link.url).toMatch(new RegExp(`^http://${site.subdomain}\\.localhost:8080/_share/[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{22}$`));
    expect(linkIdOfToken(server.ctx.shareKeys, link.url.split("/_share/")[1]!)).toBe(link.id);
    const [row] = await server.ctx.db.select().from(shareLinks).where(eq(shareLinks.id, link.id));
    expect(row!.password_hash).toMatch(/^scrypt\$/);
    // The token is not stored anywhere: the URL is the same when listed again.
    const listed = (await client.get(`/api/sites/${site.id}/share-links`)).json().links as ShareLinkResponse[];
    expect(listed.map((l) => l.url)).toEqual([link.url]);
  });

  it("lists a site's links newest first, and only that site's", async () => {
    const { client, site, user } = await ownerWithSite("pro");
    const otherSite = await linkFor(user.id, (await createSiteWith(client, htmlFile("<p>second</p>"))).id, { name: "Another site's" });
    const first = await client.post(`/api/sites/${site.id}/share-links`, { name: "First" });
    const second = await client.post(`/api/sites/${site.id}/share-links`, { name: "Second", maxViews: 1 });
    const links = (await client.get(`/api/sites/${site.id}/share-links`)).json().links as ShareLinkResponse[];
    expect(links.map((l) => l.id)).toEqual([second.json().id, first.json().id]);
    expect(links.map((l) => l.id)).not.toContain(otherSite.id);
  });

  it.each([
    ["an expiry in the past", { name: "x", expiresAt: new Date(Date.now() - 1000).toISOString() }, SHARE_LINK_TEXT.expiryInPast],
    ["no name", { name: "   " }, SHARE_LINK_TEXT.nameRequired],
    ["a name too long", { name: "x".repeat(101) }, SHARE_LINK_TEXT.nameTooLong],
    ["zero views", { name: "x", maxViews: 0 }, SHARE_LINK_TEXT.maxViews],
    ["fractional views", { name: "x", maxViews: 1.5 }, SHARE_LINK_TEXT.maxViews],
    ["a bad time", { name: "x", expiresAt: "tomorrow" }, SHARE_LINK_TEXT.invalidTime],
    ["a short password", { name: "x", password: "abc" }, undefined],
  ])("refuses %s with 400 and creates nothing", async (_name, body, message) => {
    const { client, site } = await ownerWithSite("pro");
    const response = await client.post(`/api/sites/${site.id}/share-links`, body);
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe("invalid_request");
    if (message) expect(response.json().error.message).toBe(message);
    expect(await server.ctx.db.select().from(shareLinks).where(eq(shareLinks.site_id, site.id))).toEqual([]);
  });

  it("renames, revokes and restores a link; a Free owner may revoke but not restore", async () => {
    const { client, site, user } = await ownerWithSite("pro");
    const id = (await client.post(`/api/sites/${site.id}/share-links`, { name: "Old" })).json().id as string;
    const url = `/api/sites/${site.id}/share-links/${id}`;
    expect((await client.patch(url, { name: "New" })).json()).toMatchObject({ name: "New", state: "active" });
    const revoked = (await client.patch(url, { revoked: true })).json<ShareLinkResponse>();
    expect(revoked.state).toBe("revoked");
    expect(revoked.revoked_at).not.toBeNull();
    // Revoking again keeps the first time.
    expect((await client.patch(url, { revoked: true })).json().revoked_at).toBe(revoked.revoked_at);

    await setPlan(server, user.id, "free");
    const refused = await client.patch(url, { revoked: false });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe("pro_required");
    expect((await client.get(`/api/sites/${site.id}/share-links`)).json().links[0].state).toBe("revoked");

    await setPlan(server, user.id, "pro");
    expect((await client.patch(url, { revoked: false })).json()).toMatchObject({ state: "active", revoked_at: null });
    expect((await client.patch(url, { name: "" })).statusCode).toBe(400);
  });

  it("deletes a link with its access log", async () => {
    const { client, site, user } = await ownerWithSite("pro");
    const link = await linkFor(user.id, site.id);
    await server.ctx.db.insert(shareLinkOpens).values({ link_id: link.id, user_agent: "Test" });
    expect((await client.delete(`/api/sites/${site.id}/share-links/${link.id}`)).statusCode).toBe(204);
    expect(await server.ctx.db.select().from(shareLinks).where(eq(shareLinks.id, link.id))).toEqual([]);
    expect(await server.ctx.db.select().from(shareLinkOpens).where(eq(shareLinkOpens.link_id, link.id))).toEqual([]);
    expect((await client.delete(`/api/sites/${site.id}/share-links/${link.id}`)).statusCode).toBe(404);
  });

  it("lists the last opens newest first, at most 50", async () => {
    const { client, site, user } = await ownerWithSite("pro");
    const link = await linkFor(user.id, site.id);
    const base = Date.now() - 100_000;
    await server.ctx.db
      .insert(shareLinkOpens)
      .values(Array.from({ length: 55 }, (_, i) => ({ link_id: link.id, opened_at: new Date(base + i * 1000), user_agent: `Agent ${i}` })));
    const opens = (await client.get(`/api/sites/${site.id}/share-links/${link.id}/opens`)).json().opens;
    expect(opens).toHaveLength(50);
    expect(opens[0]).toEqual({ opened_at: new Date(base + 54_000).toISOString(), country: null, user_agent: "Agent 54" });
    expect(opens[49].user_agent).toBe("Agent 5");
  });

  it("answers 404 for a link of another site of the same owner, and for ids that are not ids", async () => {
    const { client, site, user } = await ownerWithSite("pro");
    const second = await createSiteWith(client, htmlFile("<p>second</p>"));
    const foreign = await linkFor(user.id, second.id);
    for (const linkId of [foreign.id, "not-a-uuid", "00000000-0000-0000-0000-000000000000"]) {
      for (const response of [
        await client.patch(`/api/sites/${site.id}/share-links/${linkId}`, { name: "Mine now" }),
        await client.delete(`/api/sites/${site.id}/share-links/${linkId}`),
        await client.get(`/api/sites/${site.id}/share-links/${linkId}/opens`),
      ]) {
        expect(response.statusCode).toBe(404);
        expect(response.json().error.code).toBe("share_link_not_found");
      }
    }
    const [row] = await server.ctx.db.select().from(shareLinks).where(eq(shareLinks.id, foreign.id));
    expect(row!.name).toBe("Direct");
  });

  it("sets and clears the visibility, shown on the site; a Free owner can go back to public", async () => {
    const { client, site, user } = await ownerWithSite("pro");
    expect(site.visibility).toBe("public");
    const put = (visibility: string) => client.request("PUT", `/api/sites/${site.id}/visibility`, { json: { visibility } });
    expect((await put("private")).json()).toMatchObject({ id: site.id, visibility: "private" });
    expect((await client.get(`/api/sites/${site.id}`)).json().visibility).toBe("private");
    expect((await client.get("/api/sites")).json().sites[0].visibility).toBe("private");
    expect((await put("secret")).statusCode).toBe(400);
    await setPlan(server, user.id, "free");
    expect((await put("private")).statusCode).toBe(403);
    expect((await put("public")).json().visibility).toBe("public");
    const [row] = await server.ctx.db.select().from(sites).where(eq(sites.id, site.id));
    expect(row!.visibility).toBe("public");
  });
});
