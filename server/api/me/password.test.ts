// The dashboard changes the password through better-auth's own endpoint, asking it to sign out
// every other session.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DRIVERS, getTestServer, type TestClient, type TestServer } from "../../test/support";
import { buildUser, type BuiltUser } from "../../test/factories";

describe.each(DRIVERS)("changing the password (%s)", (driver) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer(driver);
  });
  afterAll(() => server.close());

  const signIn = async (user: BuiltUser, password = user.password): Promise<{ client: TestClient; status: number }> => {
    const client = server.client();
    const response = await client.post("/api/auth/sign-in/email", { email: user.email, password });
    return { client, status: response.statusCode };
  };
  const signedIn = async (client: TestClient) => (await client.get("/api/me")).statusCode === 200;

  it("refuses a wrong current password and changes nothing", async () => {
    const user = await buildUser(server);
    const { client } = await signIn(user);
    const other = (await signIn(user)).client;
    const response = await client.post("/api/auth/change-password", {
      currentPassword: "not my password",
      newPassword: "a brand new password",
      revokeOtherSessions: true,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe("INVALID_PASSWORD");
    expect(await signedIn(client)).toBe(true);
    expect(await signedIn(other)).toBe(true);
    expect((await signIn(user, "a brand new password")).status).toBe(401);
    expect((await signIn(user)).status).toBe(200);
  });

  it("refuses a guest", async () => {
    const response = await server.client().post("/api/auth/change-password", {
      currentPassword: "whatever it is",
      newPassword: "a brand new password",
      revokeOtherSessions: true,
    });
    expect(response.statusCode).toBe(401);
  });

  it("changes it, signs out the other sessions and keeps this one", async () => {
    const user = await buildUser(server);
    const { client } = await signIn(user);
    const otherBrowser = (await signIn(user)).client;

    const response = await client.post("/api/auth/change-password", {
      currentPassword: user.password,
      newPassword: "a brand new password",
      revokeOtherSessions: true,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(await signedIn(client)).toBe(true);
    expect(await signedIn(otherBrowser)).toBe(false);
    expect((await client.get("/api/me/sessions")).json().sessions).toHaveLength(1);

    expect((await signIn(user)).status).toBe(401);
    expect((await signIn(user, "a brand new password")).status).toBe(200);
  });
});
