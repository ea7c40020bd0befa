// Two-factor sign-in through better-auth's plugin, as the dashboard drives it: enable with the
// password, confirm with a first code from the authenticator app (computed here from the secret
// in the otpauth:// URI), then every sign-in asks for a code or a one-time backup code.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { DRIVERS, getTestServer, type TestClient, type TestServer } from "../../test/support";
import { buildUser, type BuiltUser } from "../../test/factories";
import { parseTotpUri, totpFromUri } from "../../test/totp";
import { twoFactors, users } from "../../db/schema";
import type { MeResponse } from "../../../common/api";
import { TWO_FACTOR_ACCOUNT_LIMIT, TWO_FACTOR_VERIFY_LIMIT } from "../../../common/limits";

interface Setup {
  totpURI: string;
  backupCodes: string[];
}

/** A code that is not the current one (nor its neighbours, which the server also accepts). */
function wrongCode(uri: string): string {
  const near = [-30_000, 0, 30_000].map((offset) => totpFromUri(uri, Date.now() + offset));
  for (let n = 0; ; n++) {
    const candidate = String(n).padStart(6, "0");
    if (!near.includes(candidate)) return candidate;
  }
}

describe.each(DRIVERS)("two-factor sign-in (%s)", (driver) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer(driver);
  });
  afterAll(() => server.close());

  const signIn = async (user: BuiltUser, client = server.client()) => {
    const response = await client.post("/api/auth/sign-in/email", { email: user.email, password: user.password });
    return { client, response };
  };
  const me = (client: TestClient) => client.get("/api/me");

  /** Signs in, turns two-factor on and confirms it with a first code. */
  const enabledUser = async (): Promise<{ user: BuiltUser; client: TestClient; setup: Setup }> => {
    const user = await buildUser(server);
    const { client } = await signIn(user);
    const enable = await client.post("/api/auth/two-factor/enable", { password: user.password });
    expect(enable.statusCode, enable.body).toBe(200);
    const setup = enable.json<Setup>();
    const verify = await client.post("/api/auth/two-factor/verify-totp", { code: totpFromUri(setup.totpURI) });
    expect(verify.statusCode, verify.body).toBe(200);
    return { user, client, setup };
  };

  it("turns on only after a first code from the authenticator app", async () => {
    const user = await buildUser(server);
    const { client } = await signIn(user);

    const badPassword = await client.post("/api/auth/two-factor/enable", { password: "not my password" });
    expect(badPassword.statusCode).toBe(400);
    expect(badPassword.json().code).toBe("INVALID_PASSWORD");

    const enable = await client.post("/api/auth/two-factor/enable", { password: user.password });
    expect(enable.statusCode).toBe(200);
    const setup = enable.json<Setup>();
    const uri = parseTotpUri(setup.totpURI);
    expect(uri).toMatchObject({ issuer: "Berth", digits: 6, period: 30, label: `Berth:${user.email}` });
    expect(setup.backupCodes).toHaveLength(10);
    expect(new Set(setup.backupCodes).size).toBe(10);
    // Stored encrypted, never as given out.
    const [row] = await server.ctx.db.select().from(twoFactors).where(eq(twoFactors.userId, user.id));
    expect(row?.verified).toBe(false);
    expect(row?.secret).not.toContain(uri.secret);
    for (const code of setup.backupCodes) expect(row?.backupCodes).not.toContain(code);

    // Not confirmed yet: sign-in does not ask for a code.
    expect((await me(client)).json<MeResponse>().account.twoFactorEnabled).toBe(false);
    expect((await signIn(user)).response.json()).not.toHaveProperty("twoFactorRedirect");

    const wrong = await client.post("/api/auth/two-factor/verify-totp", { code: wrongCode(setup.totpURI) });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().code).toBe("INVALID_CODE");
    expect((await me(client)).json<MeResponse>().account.twoFactorEnabled).toBe(false);

    const right = await client.post("/api/auth/two-factor/verify-totp", { code: totpFromUri(setup.totpURI) });
    expect(right.statusCode).toBe(200);
    // The session is renewed with the new user state and this browser stays signed in.
    expect((await me(client)).json<MeResponse>().account.twoFactorEnabled).toBe(true);
    const [user2] = await server.ctx.db.select({ on: users.twoFactorEnabled }).from(users).where(eq(users.id, user.id));
    expect(user2?.on).toBe(true);
  });

  it("asks for a code at sign-in, refuses a wrong one and signs in with the right one", async () => {
    const { user, setup } = await enabledUser();
    const { client, response } = await signIn(user);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ twoFactorRedirect: true, twoFactorMethods: ["totp"] });
    expect([...client.cookies.keys()]).toEqual(["berth.two_factor"]);
    expect((await me(client)).statusCode).toBe(401);

    const wrong = await client.post("/api/auth/two-factor/verify-totp", { code: wrongCode(setup.totpURI) });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().code).toBe("INVALID_CODE");
    expect((await me(client)).statusCode).toBe(401);

    const right = await client.post("/api/auth/two-factor/verify-totp", { code: totpFromUri(setup.totpURI) });
    expect(right.statusCode, right.body).toBe(200);
    expect((await me(client)).statusCode).toBe(200);
    expect(client.cookies.has("berth.two_factor")).toBe(false);
  });

  it("a code without the password step is refused", async () => {
    const { setup } = await enabledUser();
    const stranger = server.client();
    const response = await stranger.post("/api/auth/two-factor/verify-totp", { code: totpFromUri(setup.totpURI) });
    expect(response.statusCode).toBe(401);
    expect((await me(stranger)).statusCode).toBe(401);
  });

  it("takes each backup code once", async () => {
    const { user, setup } = await enabledUser();
    const code = setup.backupCodes[3]!;

    const first = await signIn(user);
    const used = await first.client.post("/api/auth/two-factor/verify-backup-code", { code });
    expect(used.statusCode, used.body).toBe(200);
    expect((await me(first.client)).statusCode).toBe(200);

    const second = await signIn(user);
    const again = await second.client.post("/api/auth/two-factor/verify-backup-code", { code });
    expect(again.statusCode).toBe(401);
    expect(again.json().code).toBe("INVALID_BACKUP_CODE");
    expect((await me(second.client)).statusCode).toBe(401);

    const another = await second.client.post("/api/auth/two-factor/verify-backup-code", { code: setup.backupCodes[4]! });
    expect(another.statusCode).toBe(200);
    expect((await me(second.client)).statusCode).toBe(200);
  });

  it("turns off with the password only", async () => {
    const { user, client } = await enabledUser();
    const wrong = await client.post("/api/auth/two-factor/disable", { password: "not my password" });
    expect(wrong.statusCode).toBe(400);
    expect((await me(client)).json<MeResponse>().account.twoFactorEnabled).toBe(true);

    const off = await client.post("/api/auth/two-factor/disable", { password: user.password });
    expect(off.statusCode, off.body).toBe(200);
    expect((await me(client)).json<MeResponse>().account.twoFactorEnabled).toBe(false);
    expect(await server.ctx.db.select().from(twoFactors).where(eq(twoFactors.userId, user.id))).toEqual([]);
    const { client: fresh, response } = await signIn(user);
    expect(response.json()).not.toHaveProperty("twoFactorRedirect");
    expect((await me(fresh)).statusCode).toBe(200);
  });

  it(`limits code checks to ${TWO_FACTOR_VERIFY_LIMIT.max} per client address per ${TWO_FACTOR_VERIFY_LIMIT.window / 60} minutes, both kinds of code together`, async () => {
    const { user, setup } = await enabledUser();
    const attacker = server.client();
    for (let i = 0; i < TWO_FACTOR_VERIFY_LIMIT.max; i++) {
      const response =
        i % 2 === 0
          ? await attacker.post("/api/auth/two-factor/verify-backup-code", { code: "xxxxx-xxxxx" })
          : await attacker.post("/api/auth/two-factor/verify-totp", { code: "000000" });
      expect(response.statusCode, `attempt ${i + 1}`).toBe(401);
    }
    for (const path of ["/api/auth/two-factor/verify-backup-code", "/api/auth/two-factor/verify-totp"]) {
      const limited = await attacker.post(path, { code: "xxxxx-xxxxx" });
      expect(limited.statusCode).toBe(429);
      // As better-auth's own limiter answers.
      expect(limited.json()).toEqual({ message: "Too many requests. Please try again later." });
      expect(Number(limited.headers["x-retry-after"])).toBeGreaterThan(0);
    }
    // Another address is not affected, and the limit holds even with the right code.
    const { client } = await signIn(user, attacker);
    expect((await client.post("/api/auth/two-factor/verify-backup-code", { code: setup.backupCodes[0]! })).statusCode).toBe(429);
    const elsewhere = await signIn(user);
    expect((await elsewhere.client.post("/api/auth/two-factor/verify-totp", { code: totpFromUri(setup.totpURI) })).statusCode).toBe(200);
  });

  it(`limits codes per account to ${TWO_FACTOR_ACCOUNT_LIMIT.max} per ${TWO_FACTOR_ACCOUNT_LIMIT.window / 60} minutes from any address; a right code gives its attempt back`, async () => {
    const { user, setup } = await enabledUser();
    // Each wrong code through its own challenge from its own address: no per-address or
    // per-challenge limit applies, only the account's.
    const wrongOnce = async () => {
      const { client } = await signIn(user);
      return (await client.post("/api/auth/two-factor/verify-totp", { code: wrongCode(setup.totpURI) })).statusCode;
    };
    for (let i = 0; i < TWO_FACTOR_ACCOUNT_LIMIT.max - 1; i++) expect(await wrongOnce(), `wrong code ${i + 1}`).toBe(401);
    const { client } = await signIn(user);
    expect((await client.post("/api/auth/two-factor/verify-totp", { code: totpFromUri(setup.totpURI) })).statusCode).toBe(200);
    // The right code took its attempt back: one more wrong code is still checked, the next is not.
    expect(await wrongOnce()).toBe(401);
    const refused = await signIn(user);
    const limited = await refused.client.post("/api/auth/two-factor/verify-backup-code", { code: setup.backupCodes[0]! });
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: "ACCOUNT_TEMPORARILY_LOCKED" });
    expect((await me(refused.client)).statusCode).toBe(401);
  });
});

describe.each(DRIVERS)("two-factor sign-in over HTTPS (%s)", (driver) => {
  const APP = "https://app.berth.test";
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer(driver, { env: { BERTH_APP_URL: APP } });
  });
  afterAll(() => server.close());

  const post = (client: TestClient, url: string, json: unknown) => client.request("POST", url, { json, headers: { origin: APP } });
  const setCookies = (response: { headers: Record<string, unknown> }) => [response.headers["set-cookie"] ?? []].flat().map(String);

  it("keeps every auth cookie, the two-factor one included, under __Host-", async () => {
    const user = await buildUser(server);
    const client = server.client();
    expect((await post(client, "/api/auth/sign-in/email", { email: user.email, password: user.password })).statusCode).toBe(200);
    const enable = await post(client, "/api/auth/two-factor/enable", { password: user.password });
    const { totpURI } = enable.json<Setup>();
    expect((await post(client, "/api/auth/two-factor/verify-totp", { code: totpFromUri(totpURI) })).statusCode).toBe(200);

    const browser = server.client();
    const challenge = await post(browser, "/api/auth/sign-in/email", { email: user.email, password: user.password });
    expect(challenge.json()).toMatchObject({ twoFactorRedirect: true });
    const cookie = setCookies(challenge).find((c) => c.includes("two_factor="));
    expect(cookie).toMatch(/^__Host-berth\.two_factor=/);
    expect(cookie).toMatch(/; Path=\/(;|$)/);
    expect(cookie).toMatch(/; Secure/i);
    expect(cookie).not.toMatch(/Domain=/i);
    for (const c of setCookies(challenge)) expect(c).not.toMatch(/^__Secure-/);

    const verified = await post(browser, "/api/auth/two-factor/verify-totp", { code: totpFromUri(totpURI) });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(setCookies(verified).some((c) => /^__Host-berth\.session_token=[^;]+/.test(c))).toBe(true);
    for (const c of setCookies(verified)) expect(c).not.toMatch(/^__Secure-/);
    expect((await browser.get("/api/me")).statusCode).toBe(200);
  });

  it("ignores a planted __Secure- two-factor cookie", async () => {
    const user = await buildUser(server);
    const owner = server.client();
    await post(owner, "/api/auth/sign-in/email", { email: user.email, password: user.password });
    const { totpURI } = (await post(owner, "/api/auth/two-factor/enable", { password: user.password })).json<Setup>();
    await post(owner, "/api/auth/two-factor/verify-totp", { code: totpFromUri(totpURI) });

    // The victim's pending challenge cookie, replayed under the name a sibling host could set.
    const victim = server.client();
    await post(victim, "/api/auth/sign-in/email", { email: user.email, password: user.password });
    const value = victim.cookies.get("__Host-berth.two_factor")!;
    const attacker = server.client();
    attacker.cookies.set("__Secure-berth.two_factor", value);
    const response = await post(attacker, "/api/auth/two-factor/verify-totp", { code: totpFromUri(totpURI) });
    expect(response.statusCode).toBe(401);
  });
});
