import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { DRIVERS, getTestServer, type TestClient, type TestServer } from "../../test/support";
import { buildUser, type BuiltUser } from "../../test/factories";
import { sessions } from "../../db/schema";
import type { SessionsResponse } from "../../../common/account";

const MAC_CHROME = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const IPHONE_SAFARI =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

describe.each(DRIVERS)("active sessions (%s)", (driver) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer(driver);
  });
  afterAll(() => server.close());

  /** Signs `user` in from a new browser with its own address and user agent. */
  const signIn = async (user: BuiltUser, userAgent = MAC_CHROME, ip?: string): Promise<TestClient> => {
    const client = server.client(ip ? { ip } : {});
    const response = await client.request("POST", "/api/auth/sign-in/email", {
      json: { email: user.email, password: user.password },
      headers: { "user-agent": userAgent },
    });
    expect(response.statusCode, response.body).toBe(200);
    return client;
  };
  const list = async (client: TestClient) => {
    const response = await client.get("/api/me/sessions");
    expect(response.statusCode, response.body).toBe(200);
    return response.json<SessionsResponse>().sessions;
  };
  const signedIn = async (client: TestClient) => (await client.get("/api/me")).statusCode === 200;

  it("lists the user's browsers with device, browser, address and activity, the current one first", async () => {
    const user = await buildUser(server);
    const laptop = await signIn(user, MAC_CHROME, "203.0.113.10");
    const phone = await signIn(user, IPHONE_SAFARI, "203.0.113.11");
    await signIn(await buildUser(server));

    const fromPhone = await list(phone);
    expect(fromPhone).toHaveLength(2);
    expect(fromPhone[0]).toMatchObject({ current: true, device: "Mobile", browser: "Safari 17", os: "iOS", ipAddress: "203.0.113.11" });
    expect(fromPhone[1]).toMatchObject({ current: false, device: "Desktop", browser: "Chrome 131", os: "macOS", ipAddress: "203.0.113.10" });
    for (const session of fromPhone) {
      expect(Object.keys(session).sort()).toEqual(["browser", "createdAt", "current", "device", "id", "ipAddress", "lastActiveAt", "os"]);
      expect(Date.parse(session.lastActiveAt)).toBeGreaterThanOrEqual(Date.parse(session.createdAt));
    }
    const fromLaptop = await list(laptop);
    expect(fromLaptop[0]).toMatchObject({ current: true, browser: "Chrome 131", id: fromPhone[1]!.id });
    // The session token is a credential: it never appears.
    const tokens = await server.ctx.db.select({ token: sessions.token }).from(sessions).where(eq(sessions.userId, user.id));
    const body = JSON.stringify(fromPhone);
    for (const { token } of tokens) expect(body).not.toContain(token);
  });

  it("does not offer better-auth's session list, which would hand session tokens to the page", async () => {
    const client = await signIn(await buildUser(server));
    expect((await client.get("/api/auth/list-sessions")).statusCode).toBe(404);
  });

  it("revokes one session, which is signed out at once", async () => {
    const user = await buildUser(server);
    const laptop = await signIn(user);
    const phone = await signIn(user, IPHONE_SAFARI);
    const phoneId = (await list(phone))[0]!.id;

    const response = await laptop.delete(`/api/me/sessions/${phoneId}`);
    expect(response.statusCode).toBe(200);
    expect(response.json<SessionsResponse>().sessions.map((s) => s.id)).not.toContain(phoneId);
    expect(await signedIn(phone)).toBe(false);
    expect((await phone.get("/api/auth/get-session")).json()).toBeNull();
    expect(await signedIn(laptop)).toBe(true);
    expect((await laptop.delete(`/api/me/sessions/${phoneId}`)).statusCode).toBe(404);
  });

  it("cannot see or revoke another user's sessions", async () => {
    const owner = await signIn(await buildUser(server));
    const ownerSessionId = (await list(owner))[0]!.id;
    const intruder = await signIn(await buildUser(server));

    expect((await list(intruder)).map((s) => s.id)).not.toContain(ownerSessionId);
    const response = await intruder.delete(`/api/me/sessions/${ownerSessionId}`);
    expect(response.statusCode).toBe(404);
    expect(response.json().error).toEqual({ code: "session_not_found", message: "Session not found" });
    await intruder.post("/api/me/sessions/revoke-others", {});
    expect(await signedIn(owner)).toBe(true);
    expect((await list(owner)).map((s) => s.id)).toEqual([ownerSessionId]);
  });

  it("revokes every other session and keeps the current one", async () => {
    const user = await buildUser(server);
    const others = [await signIn(user), await signIn(user, IPHONE_SAFARI), await signIn(user)];
    const current = await signIn(user);
    const response = await current.post("/api/me/sessions/revoke-others", {});
    expect(response.statusCode).toBe(200);
    expect(response.json<SessionsResponse>().sessions).toEqual([expect.objectContaining({ current: true })]);
    for (const client of others) expect(await signedIn(client)).toBe(false);
    expect(await signedIn(current)).toBe(true);
  });

  it("records activity at most every five minutes", async () => {
    const user = await buildUser(server);
    const client = await signIn(user);
    const setLastActivity = (minutesAgo: number) =>
      server.ctx.db
        .update(sessions)
        .set({ updatedAt: sql`now() - make_interval(mins => ${minutesAgo}::int)` })
        .where(eq(sessions.userId, user.id));
    const lastActivity = async () =>
      (await server.ctx.db.select({ at: sessions.updatedAt }).from(sessions).where(eq(sessions.userId, user.id)))[0]!.at;

    await setLastActivity(60);
    await client.get("/api/sites");
    expect(Date.now() - (await lastActivity()).getTime()).toBeLessThan(60_000);
    expect(Date.now() - Date.parse((await list(client))[0]!.lastActiveAt)).toBeLessThan(60_000);

    await setLastActivity(3);
    const before = await lastActivity();
    await client.get("/api/sites");
    expect((await lastActivity()).getTime()).toBe(before.getTime());
  });

  it("leaves expired sessions out", async () => {
    const user = await buildUser(server);
    const old = await signIn(user);
    const current = await signIn(user);
    const oldId = (await list(old))[0]!.id;
    await server.ctx.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.id, oldId));
    expect((await list(current)).map((s) => s.id)).not.toContain(oldId);
  });

  it.each([
    ["GET /api/me/sessions", (c: TestClient) => c.get("/api/me/sessions")],
    ["DELETE /api/me/sessions/:id", (c: TestClient) => c.delete("/api/me/sessions/some-id")],
    ["POST /api/me/sessions/revoke-others", (c: TestClient) => c.post("/api/me/sessions/revoke-others", {})],
  ])("%s as a guest is 401", async (_name, call) => {
    const response = await call(server.client());
    expect(response.statusCode).toBe(401);
  });
});
