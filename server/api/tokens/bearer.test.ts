// Requests with `Authorization: Bearer`: who they act for, on which routes, within which sites, and
// what they leave behind (the last use, once a minute). The route-by-route matrix is in
// server/security/apiTokenMatrix.test.ts; this is each rule on its own.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { apiTokens, users } from "../../db/schema";
import { DRIVERS, getTestServer, type TestServer } from "../../test/support";
import { ownerWithSite, signedInClient } from "../../test/factories";
import { createSiteWith, htmlFile } from "../../test/sites";
import { bearer, createToken, tokenClient } from "../../test/apiTokens";
import { setBanned } from "../../test/security/tenants";
import { API_TOKEN_TEXT } from "../../../common/apiTokens";
import type { SiteListResponse } from "../../../common/sites";

const errorOf = (response: { json: <T>() => T }) => response.json<{ error: { code: string; message: string } }>().error;

describe.each(DRIVERS)("API token requests (%s)", (driver) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer(driver);
  });
  afterAll(() => server.close());

  const owner = () => ownerWithSite(server, "free", [{ name: "index.html", data: "<h1>Token</h1>" }]);
  const rowOf = async (id: string) => (await server.ctx.db.select().from(apiTokens).where(eq(apiTokens.id, id)))[0]!;

  it("acts for its owner on the routes its permission covers, and refuses the rest with 403", async () => {
    const { client, site } = await owner();
    const read = tokenClient(server, (await createToken(client, "read")).secret);
    expect((await read.get(`/api/sites/${site.id}`)).statusCode).toBe(200);
    expect((await read.get(`/api/sites/${site.id}/files`)).statusCode).toBe(200);
    const publish = await read.post(`/api/sites/${site.id}/deployments`, {});
    expect(publish.statusCode).toBe(403);
    expect(errorOf(publish)).toEqual({ code: "token_not_permitted", message: API_TOKEN_TEXT.notPermitted });

    const deploy = tokenClient(server, (await createToken(client, "deploy")).secret);
    expect((await deploy.post(`/api/sites/${site.id}/deployments`, {})).statusCode).toBe(201);
    expect((await deploy.patch(`/api/sites/${site.id}`, { name: "Renamed" })).statusCode).toBe(403);

    const full = tokenClient(server, (await createToken(client, "full")).secret);
    expect((await full.patch(`/api/sites/${site.id}`, { name: "Renamed" })).statusCode).toBe(200);
  });

  it("is refused on session-only routes, better-auth's included, with 403 session_only", async () => {
    const { client } = await owner();
    const full = tokenClient(server, (await createToken(client, "full")).secret);
    for (const response of [
      await full.get("/api/me"),
      await full.get("/api/tokens"),
      await full.post("/api/tokens", { name: "Another", permission: "full" }),
      await full.get("/api/me/sessions"),
      await full.post("/api/auth/sign-out", {}),
      await full.get("/api/auth/get-session"),
    ]) {
      expect(response.statusCode, response.body).toBe(403);
      expect(errorOf(response).code).toBe("session_only");
    }
    // The admin API stays hidden from a token, as from a guest.
    expect((await full.get("/api/admin/users")).statusCode).toBe(404);
  });

  it("refuses an unknown, malformed, revoked or expired token with 401, and a banned or deleted owner", async () => {
    const { client, site, user } = await owner();
    const token = await createToken(client, "read");
    const reader = tokenClient(server, token.secret);
    const path = `/api/sites/${site.id}`;
    expect((await reader.get(path)).statusCode).toBe(200);

    for (const secret of [`berth_${"A".repeat(43)}`, "berth_short", token.secret + "x", "not-a-token"]) {
      const response = await tokenClient(server, secret).get(path);
      expect(response.statusCode).toBe(401);
      expect(errorOf(response)).toEqual({ code: "invalid_token", message: API_TOKEN_TEXT.invalidToken });
    }

    await server.ctx.db
      .update(apiTokens)
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where(eq(apiTokens.id, token.id));
    const expired = await reader.get(path);
    expect(expired.statusCode).toBe(401);
    expect(errorOf(expired)).toEqual({ code: "expired_token", message: API_TOKEN_TEXT.expiredToken });
    await server.ctx.db.update(apiTokens).set({ expires_at: null }).where(eq(apiTokens.id, token.id));

    await setBanned(server, user.id, true);
    expect((await reader.get(path)).statusCode).toBe(403);
    await setBanned(server, user.id, false);
    expect((await reader.get(path)).statusCode).toBe(200);

    expect((await client.delete(`/api/tokens/${token.id}`)).statusCode).toBe(204);
    expect(errorOf(await reader.get(path)).code).toBe("invalid_token");

    const other = await owner();
    const doomed = tokenClient(server, (await createToken(other.client, "read")).secret);
    await server.ctx.db.delete(users).where(eq(users.id, other.user.id));
    expect((await doomed.get("/api/sites")).statusCode).toBe(401);
  });

  it("keeps a one-site token to its site: another site is a 404, the list shows only its site, account routes refuse it", async () => {
    const { client, site } = await owner();
    const second = await createSiteWith(client, htmlFile("<p>second</p>"), "Second");
    const scoped = tokenClient(server, (await createToken(client, "full", { siteId: site.id })).secret);
    expect((await scoped.get(`/api/sites/${site.id}`)).statusCode).toBe(200);
    const elsewhere = await scoped.get(`/api/sites/${second.id}`);
    expect(elsewhere.statusCode).toBe(404);
    expect(errorOf(elsewhere).code).toBe("site_not_found");
    expect((await scoped.patch(`/api/sites/${second.id}`, { name: "Taken" })).statusCode).toBe(404);
    const list = (await scoped.get("/api/sites")).json<SiteListResponse>();
    expect(list.sites.map((s) => s.id)).toEqual([site.id]);
    expect(Object.keys(list.views_7d)).toEqual([site.id]);
    for (const response of [await scoped.get("/api/stats"), await scoped.get("/api/domains"), await scoped.post("/api/subdomains/reserve", {})]) {
      expect(response.statusCode).toBe(403);
      expect(errorOf(response)).toEqual({ code: "token_out_of_scope", message: API_TOKEN_TEXT.outOfScope });
    }
    const everySite = tokenClient(server, (await createToken(client, "read")).secret);
    expect((await everySite.get("/api/sites")).json<SiteListResponse>().sites).toHaveLength(2);
  });

  it("needs no same-origin check without a cookie, and refuses a request with both a token and a cookie", async () => {
    const { client, site } = await owner();
    const { secret } = await createToken(client, "deploy");
    const crossSite = { origin: "https://evil.example", "sec-fetch-site": "cross-site" };
    const script = tokenClient(server, secret);
    expect((await script.post(`/api/sites/${site.id}/deployments`, {}, crossSite)).statusCode).toBe(201);

    const both = await client.request("POST", `/api/sites/${site.id}/deployments`, { json: {}, headers: bearer(secret) });
    expect(both.statusCode).toBe(400);
    expect(errorOf(both)).toEqual({ code: "ambiguous_credentials", message: API_TOKEN_TEXT.ambiguousCredentials });
    expect((await client.get(`/api/sites/${site.id}`, bearer(secret))).statusCode).toBe(400);
    // A cookie with a cross-site origin is still refused as before.
    const forged = await client.request("POST", `/api/sites/${site.id}/deployments`, { json: {}, headers: crossSite });
    expect(forged.statusCode).toBe(403);
  });

  it("records the last use (time and client address) at most once a minute", async () => {
    const { client, site } = await owner();
    const token = await createToken(client, "read");
    const path = `/api/sites/${site.id}`;
    expect((await tokenClient(server, token.secret, "203.0.113.7").get(path)).statusCode).toBe(200);
    const first = await rowOf(token.id);
    expect(first.last_used_ip).toBe("203.0.113.7");
    expect(Date.now() - first.last_used_at!.getTime()).toBeLessThan(10_000);

    expect((await tokenClient(server, token.secret, "203.0.113.8").get(path)).statusCode).toBe(200);
    expect(await rowOf(token.id)).toEqual(first);

    const longAgo = new Date(Date.now() - 61_000);
    await server.ctx.db.update(apiTokens).set({ last_used_at: longAgo }).where(eq(apiTokens.id, token.id));
    expect((await tokenClient(server, token.secret, "203.0.113.9").get(path)).statusCode).toBe(200);
    const later = await rowOf(token.id);
    expect(later.last_used_ip).toBe("203.0.113.9");
    expect(later.last_used_at!.getTime()).toBeGreaterThan(longAgo.getTime());

    const listed = (await client.get("/api/tokens")).json<{ tokens: { id: string; last_used_ip: string | null }[] }>();
    expect(listed.tokens.find((t) => t.id === token.id)!.last_used_ip).toBe("203.0.113.9");
  });

  it("a stranger's token never reaches the owner's site", async () => {
    const { site } = await owner();
    const stranger = await signedInClient(server);
    const theirs = tokenClient(server, (await createToken(stranger.client, "full")).secret);
    expect((await theirs.get(`/api/sites/${site.id}`)).statusCode).toBe(404);
    expect((await theirs.get("/api/sites")).json<SiteListResponse>().sites).toEqual([]);
  });
});
