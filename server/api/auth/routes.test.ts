import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { DRIVERS, getTestServer, type TestServer } from "../../test/support";
import { buildUser, signedInClient } from "../../test/factories";
import { profiles, verifications } from "../../db/schema";
import { AUTH_LIMITS } from "../../../common/limits";

function pathOf(url: string): string {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
}

describe.each(DRIVERS)("accounts (%s)", (driver) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer(driver);
  });
  afterAll(() => server.close());

  it("signs up, refuses sign-in until the e-mail is verified, then signs in and out", async () => {
    const client = server.client({ ip: "198.51.100.1" });
    const email = "ada@example.com";
    const signUp = await client.post("/api/auth/sign-up/email", {
      email,
      password: "analytical engine",
      name: "Ada Lovelace",
      callbackURL: "/auth/login?verified=1",
    });
    expect(signUp.statusCode).toBe(200);
    expect(client.cookies.size).toBe(0);

    const refused = await client.post("/api/auth/sign-in/email", { email, password: "analytical engine" });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: "EMAIL_NOT_VERIFIED" });

    const link = server.outbox.lastLink(email, /Confirm your e-mail/);
    expect(link.startsWith("http://localhost:8080/api/auth/verify-email?token=")).toBe(true);
    const verify = await client.get(pathOf(link));
    expect(verify.statusCode).toBe(302);
    expect(verify.headers.location).toBe("/auth/login?verified=1");

    const signIn = await client.post("/api/auth/sign-in/email", { email, password: "analytical engine", rememberMe: true });
    expect(signIn.statusCode).toBe(200);
    const setCookie = String(signIn.headers["set-cookie"]);
    expect(setCookie).toMatch(/^berth\.session_token=/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).not.toMatch(/Domain=/i);
    expect(setCookie).toMatch(/Max-Age=\d+/);

    const me = await client.get("/api/me");
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({
      user: { email, name: "Ada Lovelace" },
      profile: { full_name: "Ada Lovelace", company: null, website: null },
    });
    const [profile] = await server.ctx.db.select().from(profiles).where(eq(profiles.id, me.json().user.id));
    expect(profile?.full_name).toBe("Ada Lovelace");

    expect((await client.post("/api/auth/sign-out", {})).statusCode).toBe(200);
    const after = await client.get("/api/me");
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ error: { code: "not_authenticated", message: "Not authenticated" } });
  });

  it("sends a tampered confirmation link back to sign-in with an error, verifying nothing", async () => {
    const user = await buildUser(server, { verified: false });
    const link = new URL(server.outbox.lastLink(user.email, /Confirm your e-mail/));
    link.searchParams.set("token", link.searchParams.get("token")!.slice(0, -4) + "AAAA");
    const response = await server.client().get(link.pathname + link.search);
    expect(response.statusCode).toBe(302);
    expect(String(response.headers.location)).toMatch(/^\/auth\/login\?verified=1&error=/);
    const signIn = await server.client().post("/api/auth/sign-in/email", { email: user.email, password: user.password });
    expect(signIn.statusCode).toBe(403);
  });

  it("without remember-me the session cookie lasts only as long as the browser", async () => {
    const user = await buildUser(server);
    const client = server.client({ ip: "198.51.100.2" });
    const signIn = await client.post("/api/auth/sign-in/email", { email: user.email, password: user.password, rememberMe: false });
    expect(signIn.statusCode).toBe(200);
    const session = [signIn.headers["set-cookie"]].flat().find((c) => String(c).startsWith("berth.session_token="));
    expect(session).toBeDefined();
    expect(String(session)).not.toMatch(/Max-Age|Expires/i);
  });

  it("gives the same answer for a wrong password and an unknown e-mail", async () => {
    const user = await buildUser(server);
    const client = server.client({ ip: "198.51.100.3" });
    const wrong = await client.post("/api/auth/sign-in/email", { email: user.email, password: "not the password" });
    const unknown = await client.post("/api/auth/sign-in/email", { email: "nobody@example.com", password: "not the password" });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json().message).toBe(unknown.json().message);
    expect(wrong.body).not.toMatch(/at .*\.(ts|js):\d+/);
  });

  it("rejects bad sign-up input and creates nothing", async () => {
    const client = server.client({ ip: "198.51.100.4" });
    const short = await client.post("/api/auth/sign-up/email", { email: "short@example.com", password: "short", name: "S" });
    expect(short.statusCode).toBe(400);
    expect(short.json().code).toBe("PASSWORD_TOO_SHORT");
    const badEmail = await client.post("/api/auth/sign-up/email", { email: "not-an-email", password: "long enough pw", name: "B" });
    expect(badEmail.statusCode).toBe(400);
    expect(server.outbox.messagesTo("short@example.com")).toHaveLength(0);
    const retry = await client.post("/api/auth/sign-in/email", { email: "short@example.com", password: "short" });
    expect(retry.statusCode).toBe(401);
  });

  it("resets a password by e-mail, revokes old sessions, and refuses the link a second time", async () => {
    const { client: oldSession, user } = await signedInClient(server);
    const client = server.client({ ip: "198.51.100.5" });

    const known = await client.post("/api/auth/request-password-reset", { email: user.email, redirectTo: "/auth/update-password" });
    const unknown = await client.post("/api/auth/request-password-reset", { email: "ghost@example.com", redirectTo: "/auth/update-password" });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toEqual(known.json());
    expect(server.outbox.messagesTo("ghost@example.com")).toHaveLength(0);

    const link = server.outbox.lastLink(user.email, /Reset your Berth password/);
    const open = await client.get(pathOf(link));
    expect(open.statusCode).toBe(302);
    const location = String(open.headers.location);
    expect(location).toMatch(/^http:\/\/localhost:8080\/auth\/update-password\?token=/);
    const token = new URL(location, "http://x").searchParams.get("token")!;

    const reset = await client.post("/api/auth/reset-password", { newPassword: "a brand new password", token });
    expect(reset.statusCode).toBe(200);
    expect((await oldSession.get("/api/me")).statusCode).toBe(401);

    const again = await client.post("/api/auth/reset-password", { newPassword: "yet another password", token });
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe("INVALID_TOKEN");

    const oldPassword = await client.post("/api/auth/sign-in/email", { email: user.email, password: user.password });
    expect(oldPassword.statusCode).toBe(401);
    const newPassword = await client.post("/api/auth/sign-in/email", { email: user.email, password: "a brand new password" });
    expect(newPassword.statusCode).toBe(200);
  });

  it("refuses an expired reset link", async () => {
    const user = await buildUser(server);
    const client = server.client({ ip: "198.51.100.6" });
    await client.post("/api/auth/request-password-reset", { email: user.email, redirectTo: "/auth/update-password" });
    const link = server.outbox.lastLink(user.email, /Reset your Berth password/);
    const token = new URL(link).pathname.split("/").pop()!;
    await server.ctx.db
      .update(verifications)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(verifications.identifier, `reset-password:${token}`));
    const open = await client.get(pathOf(link));
    expect(String(open.headers.location)).toMatch(/error=INVALID_TOKEN/);
    const reset = await client.post("/api/auth/reset-password", { newPassword: "whatever password", token });
    expect(reset.statusCode).toBe(400);
  });

  it("refuses auth writes from another origin, including a hosted site", async () => {
    const user = await buildUser(server);
    const client = server.client({ ip: "198.51.100.7" });
    const response = await client.post(
      "/api/auth/sign-in/email",
      { email: user.email, password: user.password },
      { origin: "http://abcde.localhost:8080" },
    );
    expect(response.statusCode).toBe(403);
    expect(client.cookies.size).toBe(0);
  });

  it("limits sign-in attempts per address, and the count survives a restart", async () => {
    const ip = "198.51.100.99";
    const attempt = (s: TestServer) => s.client({ ip }).post("/api/auth/sign-in/email", { email: "nobody@example.com", password: "whatever pw" });
    for (let i = 0; i < AUTH_LIMITS.signIn.max; i++) expect((await attempt(server)).statusCode).toBe(401);
    expect((await attempt(server)).statusCode).toBe(429);

    server = await server.restart();
    expect((await attempt(server)).statusCode).toBe(429);
    // Another address is not affected.
    const other = await server
      .client({ ip: "198.51.100.100" })
      .post("/api/auth/sign-in/email", { email: "nobody@example.com", password: "whatever pw" });
    expect(other.statusCode).toBe(401);
  });
});
