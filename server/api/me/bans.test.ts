// A suspended (banned) account: no new session by any way in, and its open sessions are refused.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { DRIVERS, getTestServer, type TestServer } from "../../test/support";
import { buildUser, signedInClient } from "../../test/factories";
import { totpFromUri } from "../../test/totp";
import { profiles, sessions } from "../../db/schema";
import { ACCOUNT_TEXT } from "../../../common/account";
import { ACCOUNT_SUSPENDED_CODE } from "../../auth/auth";

describe.each(DRIVERS)("suspended accounts (%s)", (driver) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer(driver);
  });
  afterAll(() => server.close());

  const ban = (userId: string, banned: boolean) =>
    server.ctx.db
      .update(profiles)
      .set({ banned_at: banned ? new Date() : null })
      .where(eq(profiles.id, userId));

  it("refuses the sign-in with a clear message and creates no session", async () => {
    const user = await buildUser(server);
    await ban(user.id, true);
    const client = server.client();
    const response = await client.post("/api/auth/sign-in/email", { email: user.email, password: user.password });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: ACCOUNT_SUSPENDED_CODE, message: ACCOUNT_TEXT.suspended });
    expect(client.cookies.size).toBe(0);
    expect(await server.ctx.db.select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);
    // A wrong password still gets the usual answer, so the ban says nothing to someone guessing.
    const guess = await server.client().post("/api/auth/sign-in/email", { email: user.email, password: "a wrong guess" });
    expect(guess.statusCode).toBe(401);

    await ban(user.id, false);
    expect((await client.post("/api/auth/sign-in/email", { email: user.email, password: user.password })).statusCode).toBe(200);
    expect((await client.get("/api/me")).statusCode).toBe(200);
  });

  it("refuses the API to a session opened before the ban, and lets it in again after", async () => {
    const { client, user } = await signedInClient(server);
    await ban(user.id, true);
    for (const url of ["/api/me", "/api/sites", "/api/me/sessions"]) {
      const response = await client.get(url);
      expect(response.statusCode, url).toBe(403);
      expect(response.json().error).toEqual({ code: "account_suspended", message: ACCOUNT_TEXT.suspended });
    }
    expect((await client.patch("/api/me/profile", { full_name: "Still here", company: "", website: "" })).statusCode).toBe(403);
    await ban(user.id, false);
    expect((await client.get("/api/me")).statusCode).toBe(200);
  });

  it("refuses the session at the two-factor step too", async () => {
    const { client, user } = await signedInClient(server);
    const { totpURI } = (await client.post("/api/auth/two-factor/enable", { password: user.password })).json<{ totpURI: string }>();
    await client.post("/api/auth/two-factor/verify-totp", { code: totpFromUri(totpURI) });

    const browser = server.client();
    const challenge = await browser.post("/api/auth/sign-in/email", { email: user.email, password: user.password });
    expect(challenge.json()).toMatchObject({ twoFactorRedirect: true });
    await ban(user.id, true);
    const response = await browser.post("/api/auth/two-factor/verify-totp", { code: totpFromUri(totpURI) });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: ACCOUNT_SUSPENDED_CODE, message: ACCOUNT_TEXT.suspended });
    expect(browser.cookies.has("berth.session_token")).toBe(false);
  });
});
