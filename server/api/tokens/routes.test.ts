// Managing API tokens: the secret is shown once and kept only as its hash, a one-site token names
// one of the owner's live sites, the list hides revoked tokens, and another user's token is a 404.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { apiTokens } from "../../db/schema";
import { DRIVERS, getTestServer, type TestServer } from "../../test/support";
import { ownerWithSite, signedInClient } from "../../test/factories";
import { API_TOKEN_PREFIX, API_TOKEN_TEXT, type ApiTokenListResponse, type CreatedApiTokenResponse } from "../../../common/apiTokens";
import { CAP_TEXT } from "../../../common/limits";

describe.each(DRIVERS)("API tokens API (%s)", (driver) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer(driver, { env: { BERTH_MAX_API_TOKENS_PER_ACCOUNT: "3" } });
  });
  afterAll(() => server.close());

  const rowsOf = async (userId: string) => server.ctx.db.select().from(apiTokens).where(eq(apiTokens.user_id, userId));

  it("creates a token whose secret is shown once, stored only as its SHA-256", async () => {
    const { client, user } = await signedInClient(server);
    const before = Date.now();
    const response = await client.post("/api/tokens", { name: "  CI  ", permission: "deploy", expiresInDays: 30 });
    expect(response.statusCode, response.body).toBe(201);
    const { token, secret } = response.json<CreatedApiTokenResponse>();
    expect(secret).toMatch(/^berth_[A-Za-z0-9_-]{43}$/);
    expect(token).toMatchObject({
      name: "CI",
      permission: "deploy",
      site: null,
      prefix: secret.slice(0, 10),
      last_used_at: null,
      last_used_ip: null,
    });
    expect(token.prefix.startsWith(API_TOKEN_PREFIX)).toBe(true);
    const expires = new Date(token.expires_at!).getTime();
    expect(expires - before).toBeGreaterThanOrEqual(30 * 86_400_000 - 1000);
    expect(expires - Date.now()).toBeLessThanOrEqual(30 * 86_400_000);

    const [row] = await rowsOf(user.id);
    expect(row!.token_hash).toBe(createHash("sha256").update(secret).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(secret);
    const list = (await client.get("/api/tokens")).json<ApiTokenListResponse>();
    expect(list.tokens).toEqual([token]);
    expect(JSON.stringify(list)).not.toContain(secret);
  });

  it("names a token's one site, and refuses a site that is not the owner's, or deleted, with 404 / 409", async () => {
    const owner = await ownerWithSite(server, "free", [{ name: "index.html", data: "<h1>Hi</h1>" }]);
    const other = await ownerWithSite(server, "free", [{ name: "index.html", data: "<h1>Other</h1>" }]);
    const created = await owner.client.post("/api/tokens", { name: "One site", permission: "read", siteId: owner.site.id });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json<CreatedApiTokenResponse>().token.site).toEqual({ id: owner.site.id, name: owner.site.name, subdomain: owner.site.subdomain });

    const foreign = await owner.client.post("/api/tokens", { name: "Theirs", permission: "read", siteId: other.site.id });
    expect(foreign.statusCode).toBe(404);
    const missing = await owner.client.post("/api/tokens", { name: "None", permission: "read", siteId: "not-a-site" });
    expect(missing.statusCode).toBe(404);
    expect((await owner.client.delete(`/api/sites/${owner.site.id}`)).statusCode).toBe(200);
    const deleted = await owner.client.post("/api/tokens", { name: "Deleted", permission: "read", siteId: owner.site.id });
    expect(deleted.statusCode).toBe(409);
    expect(await rowsOf(owner.user.id)).toHaveLength(1);
  });

  it("checks the body with the shared schema", async () => {
    const { client } = await signedInClient(server);
    const noName = await client.post("/api/tokens", { name: " ", permission: "read" });
    expect(noName.statusCode).toBe(400);
    expect(noName.json<{ error: { message: string } }>().error.message).toBe(API_TOKEN_TEXT.nameRequired);
    expect((await client.post("/api/tokens", { name: "x".repeat(61), permission: "read" })).statusCode).toBe(400);
    expect((await client.post("/api/tokens", { name: "Admin", permission: "admin" })).statusCode).toBe(400);
    expect((await client.post("/api/tokens", { name: "Forever", permission: "read", expiresInDays: 0 })).statusCode).toBe(400);
  });

  it("lists newest first without revoked tokens; revoking someone else's token, or one revoked already, is a 404", async () => {
    const { client, user } = await signedInClient(server);
    const stranger = await signedInClient(server);
    const ids: string[] = [];
    for (const name of ["first", "second", "third"]) {
      ids.push((await client.post("/api/tokens", { name, permission: "read" })).json<CreatedApiTokenResponse>().token.id);
    }
    const names = async () => (await client.get("/api/tokens")).json<ApiTokenListResponse>().tokens.map((t) => t.name);
    expect(await names()).toEqual(["third", "second", "first"]);

    expect((await stranger.client.delete(`/api/tokens/${ids[1]}`)).statusCode).toBe(404);
    expect((await stranger.client.get("/api/tokens")).json<ApiTokenListResponse>().tokens).toEqual([]);
    expect(await names()).toEqual(["third", "second", "first"]);

    expect((await client.delete(`/api/tokens/${ids[1]}`)).statusCode).toBe(204);
    expect(await names()).toEqual(["third", "first"]);
    expect((await client.delete(`/api/tokens/${ids[1]}`)).statusCode).toBe(404);
    expect((await client.delete("/api/tokens/not-a-uuid")).statusCode).toBe(404);
    const revoked = (await rowsOf(user.id)).find((row) => row.id === ids[1]);
    expect(revoked!.revoked_at).toBeInstanceOf(Date);
  });

  it("caps the tokens an account holds at once; a revoked one makes room", async () => {
    const { client } = await signedInClient(server);
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const response = await client.post("/api/tokens", { name: `token ${i}`, permission: "read" });
      expect(response.statusCode).toBe(201);
      ids.push(response.json<CreatedApiTokenResponse>().token.id);
    }
    const over = await client.post("/api/tokens", { name: "one too many", permission: "read" });
    expect(over.statusCode).toBe(409);
    expect(over.json<{ error: { code: string; message: string } }>().error).toEqual({
      code: "api_token_limit_reached",
      message: CAP_TEXT.apiTokens(3),
    });
    expect((await client.delete(`/api/tokens/${ids[0]}`)).statusCode).toBe(204);
    expect((await client.post("/api/tokens", { name: "room again", permission: "read" })).statusCode).toBe(201);
  });

  it("refuses a guest with 401", async () => {
    const guest = server.client();
    expect((await guest.get("/api/tokens")).statusCode).toBe(401);
    expect((await guest.post("/api/tokens", { name: "x", permission: "read" })).statusCode).toBe(401);
  });
});
