// A password-reset link is good for one password change, whichever way that change happens: once
// the password is reset (with this link or another) or changed in Settings, every reset link the
// account still has in mailboxes stops working.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { like } from "drizzle-orm";
import { DRIVERS, getTestServer, type TestClient, type TestServer } from "../test/support";
import { buildUser, signedInClient, type BuiltUser } from "../test/factories";
import { verifications } from "../db/schema";

const REDIRECT = "/auth/update-password";

describe.each(DRIVERS)("reset links after a password change (%s)", (driver) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer(driver);
  });
  afterAll(() => server.close());

  /** Asks for a reset mail and returns the token of the link it carries. */
  const requestReset = async (client: TestClient, user: BuiltUser): Promise<string> => {
    const before = server.outbox.messagesTo(user.email).length;
    const response = await client.post("/api/auth/request-password-reset", { email: user.email, redirectTo: REDIRECT });
    expect(response.statusCode, response.body).toBe(200);
    const mails = server.outbox.messagesTo(user.email).filter((m) => /Reset your Berth password/.test(m.subject));
    expect(server.outbox.messagesTo(user.email).length).toBe(before + 1);
    return new URL(mails.at(-1)!.links[0]!).pathname.split("/").pop()!;
  };
  const reset = (client: TestClient, token: string, newPassword: string) => client.post("/api/auth/reset-password", { token, newPassword });
  const signInStatus = async (user: BuiltUser, password: string) =>
    (await server.client().post("/api/auth/sign-in/email", { email: user.email, password })).statusCode;
  const outstanding = async (userId: string) =>
    (await server.ctx.db.select().from(verifications).where(like(verifications.identifier, "reset-password:%"))).filter(
      (row) => row.value === userId,
    );

  it("a reset voids the account's other reset links", async () => {
    const user = await buildUser(server);
    const client = server.client();
    const first = await requestReset(client, user);
    const second = await requestReset(client, user);
    expect(first).not.toBe(second);

    expect((await reset(client, second, "the second new password")).statusCode).toBe(200);
    const stale = await reset(client, first, "an attacker's password");
    expect(stale.statusCode, stale.body).toBe(400);
    expect(stale.json().code).toBe("INVALID_TOKEN");
    // Opening the stale link lands on the error, not on the form.
    const open = await client.get(`/api/auth/reset-password/${first}?callbackURL=${encodeURIComponent(REDIRECT)}`);
    expect(String(open.headers.location)).toMatch(/error=INVALID_TOKEN/);

    expect(await signInStatus(user, "an attacker's password")).toBe(401);
    expect(await signInStatus(user, "the second new password")).toBe(200);
    expect(await outstanding(user.id)).toEqual([]);
  });

  it("changing the password in Settings voids outstanding reset links", async () => {
    const { client, user } = await signedInClient(server);
    const token = await requestReset(server.client(), user);
    const change = await client.post("/api/auth/change-password", {
      currentPassword: user.password,
      newPassword: "changed in settings",
      revokeOtherSessions: true,
    });
    expect(change.statusCode, change.body).toBe(200);

    const stale = await reset(server.client(), token, "an attacker's password");
    expect(stale.statusCode, stale.body).toBe(400);
    expect(stale.json().code).toBe("INVALID_TOKEN");
    expect(await signInStatus(user, "an attacker's password")).toBe(401);
    expect(await signInStatus(user, "changed in settings")).toBe(200);
    expect(await outstanding(user.id)).toEqual([]);
  });

  it("leaves other accounts' reset links alone", async () => {
    const user = await buildUser(server);
    const other = await buildUser(server);
    const client = server.client();
    const mine = await requestReset(client, user);
    const theirs = await requestReset(client, other);
    expect((await reset(client, mine, "my new password")).statusCode).toBe(200);
    expect(await outstanding(other.id)).toHaveLength(1);
    expect((await reset(client, theirs, "their new password")).statusCode).toBe(200);
    expect(await signInStatus(other, "their new password")).toBe(200);
  });

  it("a failed change keeps the links", async () => {
    const { client, user } = await signedInClient(server);
    const token = await requestReset(server.client(), user);
    const wrong = await client.post("/api/auth/change-password", {
      currentPassword: "not my password",
      newPassword: "whatever it is",
      revokeOtherSessions: true,
    });
    expect(wrong.statusCode).toBe(400);
    expect(await outstanding(user.id)).toHaveLength(1);
    expect((await reset(server.client(), token, "reset after all")).statusCode).toBe(200);
    expect(await signInStatus(user, "reset after all")).toBe(200);
  });
});
