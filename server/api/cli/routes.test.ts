// The CLI's sign-in from the browser: a request is started signed out, shown and approved (or
// denied) by a signed-in user, and collected by the poller exactly once as a working API token.
// Only hashes are stored, a poller that hurries is told to slow down, lapsed and answered
// requests are closed, and wrong codes and new requests are limited.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { apiTokens, deviceLogins } from "../../db/schema";
import { DRIVERS, getTestServer, TEST_APP_URL, type TestClient, type TestServer } from "../../test/support";
import { signedInClient } from "../../test/factories";
import { createToken, tokenClient } from "../../test/apiTokens";
import { createSiteWith, htmlFile } from "../../test/sites";
import {
  CLIENT_NAME_MAX,
  DEVICE_LOGIN_INTERVAL_SECONDS,
  DEVICE_LOGIN_TEXT,
  DEVICE_LOGIN_TTL_SECONDS,
  normalizeUserCode,
  type DeviceLoginApproved,
  type DeviceLoginResponse,
  type DeviceLoginStarted,
  type WhoAmIResponse,
} from "../../../common/deviceLogin";
import { CAP_TEXT, DEVICE_CODE_GUESS_LIMIT, DEVICE_LOGIN_START_LIMIT } from "../../../common/limits";
import type { ApiTokenListResponse } from "../../../common/apiTokens";
import { runWorkerTick } from "../../jobs/worker";

const errorOf = (response: { json: <T>() => T }) => response.json<{ error: { code: string; message: string } }>().error;

describe.each(DRIVERS)("CLI sign-in from the browser (%s)", (driver) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer(driver, { env: { BERTH_MAX_API_TOKENS_PER_ACCOUNT: "3" } });
  });
  afterAll(() => server.close());

  /** A request started as the CLI starts it: signed out, from a client of its own. */
  async function start(clientName: string | null = "build-server"): Promise<{ cli: TestClient; started: DeviceLoginStarted }> {
    const cli = server.client();
    const response = await cli.post("/api/cli/login", clientName === null ? {} : { client_name: clientName });
    expect(response.statusCode, response.body).toBe(201);
    return { cli, started: response.json<DeviceLoginStarted>() };
  }
  const poll = (cli: TestClient, deviceCode: string) => cli.post("/api/cli/login/poll", { device_code: deviceCode });
  const rowOf = async (userCode: string) =>
    (
      await server.ctx.db
        .select()
        .from(deviceLogins)
        .where(eq(deviceLogins.user_code, normalizeUserCode(userCode)!))
    )[0]!;
  /** As if the last poll were a whole interval ago, so the next one is on time without waiting. */
  const waitedAnInterval = (userCode: string) =>
    server.ctx.db
      .update(deviceLogins)
      .set({ last_polled_at: new Date(Date.now() - DEVICE_LOGIN_INTERVAL_SECONDS * 1000) })
      .where(eq(deviceLogins.user_code, normalizeUserCode(userCode)!));

  it("starts a request: a secret device code, a short user code, the dashboard's link; only hashes stored", async () => {
    const before = Date.now();
    const { started } = await start();
    expect(started.device_code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(started.user_code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    expect(started.verification_url).toBe(`${TEST_APP_URL}/dashboard/cli?code=${started.user_code}`);
    expect(started).toMatchObject({ interval: DEVICE_LOGIN_INTERVAL_SECONDS, expires_in: DEVICE_LOGIN_TTL_SECONDS });

    const row = await rowOf(started.user_code);
    expect(row.device_code_hash).toBe(createHash("sha256").update(started.device_code).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(started.device_code);
    expect(row).toMatchObject({ status: "pending", user_id: null, client_name: "build-server" });
    expect(row.expires_at.getTime() - before).toBeGreaterThanOrEqual(DEVICE_LOGIN_TTL_SECONDS * 1000 - 1000);
  });

  it("checks the client name: at most the room a token name leaves, one line; none at all is allowed", async () => {
    const cli = server.client();
    const long = await cli.post("/api/cli/login", { client_name: "x".repeat(CLIENT_NAME_MAX + 1) });
    expect(long.statusCode).toBe(400);
    expect(errorOf(long).message).toBe(DEVICE_LOGIN_TEXT.clientNameTooLong);
    const twoLines = await cli.post("/api/cli/login", { client_name: "laptop\nApprove me" });
    expect(errorOf(twoLines).message).toBe(DEVICE_LOGIN_TEXT.clientNameOneLine);

    const { client } = await signedInClient(server);
    const { started } = await start(null);
    const shown = await client.get(`/api/cli/login/${started.user_code}`);
    expect(shown.json<DeviceLoginResponse>()).toMatchObject({ client_name: null, token_name: "berth CLI", status: "pending" });
  });

  it("approved, hands out a full, never-expiring token once; the poller waits before, and is told to slow down", async () => {
    const { client, user } = await signedInClient(server);
    const { cli, started } = await start("my-laptop");

    const pending = await poll(cli, started.device_code);
    expect(pending.statusCode).toBe(428);
    expect(errorOf(pending)).toEqual({ code: "authorization_pending", message: DEVICE_LOGIN_TEXT.pending });
    const hurried = await poll(cli, started.device_code);
    expect(hurried.statusCode).toBe(429);
    expect(errorOf(hurried).code).toBe("slow_down");
    expect(hurried.headers["retry-after"]).toBe(String(DEVICE_LOGIN_INTERVAL_SECONDS));

    const shown = await client.get(`/api/cli/login/${started.user_code.toLowerCase()}`);
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.json<DeviceLoginResponse>()).toMatchObject({
      user_code: started.user_code,
      client_name: "my-laptop",
      token_name: "berth CLI on my-laptop",
      status: "pending",
    });
    const approved = await client.post(`/api/cli/login/${started.user_code}/approve`, {});
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json<DeviceLoginResponse>().status).toBe("approved");
    // Approving again changes nothing; denying now is too late.
    expect((await client.post(`/api/cli/login/${started.user_code}/approve`, {})).statusCode).toBe(200);
    const deny = await client.post(`/api/cli/login/${started.user_code}/deny`, {});
    expect(deny.statusCode).toBe(409);
    expect(errorOf(deny).code).toBe("already_answered");
    // No token until the CLI collects it.
    expect(await server.ctx.db.select().from(apiTokens).where(eq(apiTokens.user_id, user.id))).toEqual([]);

    await waitedAnInterval(started.user_code);
    const collected = await poll(cli, started.device_code);
    expect(collected.statusCode, collected.body).toBe(200);
    expect(collected.headers["cache-control"]).toBe("no-store");
    const { token, user: who } = collected.json<DeviceLoginApproved>();
    expect(token).toMatch(/^berth_[A-Za-z0-9_-]{43}$/);
    expect(who).toEqual({ email: user.email });

    const whoami = await tokenClient(server, token).get("/api/whoami");
    expect(whoami.statusCode, whoami.body).toBe(200);
    expect(whoami.json<WhoAmIResponse>()).toEqual({
      user: { email: user.email, name: user.name },
      token: { name: "berth CLI on my-laptop", permission: "full", site: null, expires_at: null },
    });
    const listed = (await client.get("/api/tokens")).json<ApiTokenListResponse>().tokens;
    expect(listed.map((t) => t.name)).toEqual(["berth CLI on my-laptop"]);
    expect(JSON.stringify(await rowOf(started.user_code))).not.toContain(token);

    // Exactly once: the next poll, however late, gets nothing.
    await waitedAnInterval(started.user_code);
    const again = await poll(cli, started.device_code);
    expect(again.statusCode).toBe(410);
    expect(errorOf(again)).toEqual({ code: "login_expired", message: DEVICE_LOGIN_TEXT.expired });
    expect(await server.ctx.db.select().from(apiTokens).where(eq(apiTokens.user_id, user.id))).toHaveLength(1);
  });

  it("two polls of an approved request at once make one token", async () => {
    const { client, user } = await signedInClient(server);
    const { cli, started } = await start();
    await client.post(`/api/cli/login/${started.user_code}/approve`, {});
    const answers = await Promise.all([poll(cli, started.device_code), poll(cli, started.device_code), poll(cli, started.device_code)]);
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    expect(await server.ctx.db.select().from(apiTokens).where(eq(apiTokens.user_id, user.id))).toHaveLength(1);
  });

  it("denied: the poller is told so for good, and approving afterwards is refused", async () => {
    const { client } = await signedInClient(server);
    const { cli, started } = await start();
    const denied = await client.post(`/api/cli/login/${started.user_code}/deny`, {});
    expect(denied.statusCode).toBe(200);
    expect(denied.json<DeviceLoginResponse>().status).toBe("denied");
    const answer = await poll(cli, started.device_code);
    expect(answer.statusCode).toBe(410);
    expect(errorOf(answer)).toEqual({ code: "login_denied", message: DEVICE_LOGIN_TEXT.denied });
    expect((await client.post(`/api/cli/login/${started.user_code}/approve`, {})).statusCode).toBe(409);
  });

  it("lapsed after ten minutes: the page, the answers and the poller all get 410", async () => {
    const { client } = await signedInClient(server);
    const { cli, started } = await start();
    await server.ctx.db
      .update(deviceLogins)
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where(eq(deviceLogins.user_code, normalizeUserCode(started.user_code)!));
    const shown = await client.get(`/api/cli/login/${started.user_code}`);
    expect(shown.statusCode).toBe(410);
    expect(errorOf(shown)).toEqual({ code: "login_expired", message: DEVICE_LOGIN_TEXT.codeExpired });
    expect((await client.post(`/api/cli/login/${started.user_code}/approve`, {})).statusCode).toBe(410);
    expect((await poll(cli, started.device_code)).statusCode).toBe(410);
    // An unknown device code is the same 410: nothing tells a made-up one from a lapsed one.
    const unknown = await poll(server.client(), "A".repeat(43));
    expect(unknown.statusCode).toBe(410);
    expect(errorOf(unknown).code).toBe("login_expired");
  });

  it("a pending request is open to any signed-in user with the code; an answered one only to who answered", async () => {
    const owner = await signedInClient(server);
    const other = await signedInClient(server);
    const { started } = await start();
    expect((await other.client.get(`/api/cli/login/${started.user_code}`)).statusCode).toBe(200);
    await owner.client.post(`/api/cli/login/${started.user_code}/approve`, {});
    for (const response of [
      await other.client.get(`/api/cli/login/${started.user_code}`),
      await other.client.post(`/api/cli/login/${started.user_code}/approve`, {}),
      await other.client.post(`/api/cli/login/${started.user_code}/deny`, {}),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(errorOf(response)).toEqual({ code: "device_login_not_found", message: DEVICE_LOGIN_TEXT.notFound });
    }
    expect((await owner.client.get(`/api/cli/login/${started.user_code}`)).json<DeviceLoginResponse>().status).toBe("approved");
    expect((await server.client().get(`/api/cli/login/${started.user_code}`)).statusCode).toBe(401);
  });

  it(`limits wrong codes to ${DEVICE_CODE_GUESS_LIMIT.max} per user; right ones are not counted, a malformed one is refused unread`, async () => {
    const { client } = await signedInClient(server);
    const { started } = await start();
    for (let i = 0; i < DEVICE_CODE_GUESS_LIMIT.max + 5; i++) {
      expect((await client.get(`/api/cli/login/${started.user_code}`)).statusCode).toBe(200);
    }
    const malformed = await client.get("/api/cli/login/ABCD-EFGH");
    expect(malformed.statusCode).toBe(400);
    expect(errorOf(malformed)).toEqual({ code: "invalid_code", message: DEVICE_LOGIN_TEXT.codeInvalid });

    // Wrong codes sent all at once: the limit holds, and then even the right code waits.
    const wrong = await Promise.all(
      Array.from({ length: DEVICE_CODE_GUESS_LIMIT.max + 10 }, (_, i) =>
        client.get(`/api/cli/login/BBBB-${"BCDFGHJKLMNPQRSTVWXZ"[i % 20]!.repeat(4)}`),
      ),
    );
    expect(wrong.filter((r) => r.statusCode === 404)).toHaveLength(DEVICE_CODE_GUESS_LIMIT.max);
    const limited = wrong.find((r) => r.statusCode === 429)!;
    expect(errorOf(limited).code).toBe("rate_limited");
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    expect((await client.post(`/api/cli/login/${started.user_code}/approve`, {})).statusCode).toBe(429);
    // Another user has a count of their own.
    const other = await signedInClient(server);
    expect((await other.client.get(`/api/cli/login/${started.user_code}`)).statusCode).toBe(200);
  });

  it(`limits new requests to ${DEVICE_LOGIN_START_LIMIT.max} per client address (an IPv6 client by its /64)`, async () => {
    const sameNetwork = (i: number) => server.client({ ip: `2001:db8:77:1::${(i + 1).toString(16)}` });
    for (let i = 0; i < DEVICE_LOGIN_START_LIMIT.max; i++) {
      expect((await sameNetwork(i).post("/api/cli/login", {})).statusCode).toBe(201);
    }
    const refused = await sameNetwork(99).post("/api/cli/login", {});
    expect(refused.statusCode).toBe(429);
    expect(errorOf(refused).message).toBe(DEVICE_LOGIN_TEXT.tooManyStarts(10));
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect((await server.client({ ip: "2001:db8:77:2::1" }).post("/api/cli/login", {})).statusCode).toBe(201);
  });

  it("at the token cap, approving is refused with the cap's message", async () => {
    const { client } = await signedInClient(server);
    for (let i = 0; i < 3; i++) await createToken(client, "read", { name: `Token ${i}` });
    const { started } = await start();
    const refused = await client.post(`/api/cli/login/${started.user_code}/approve`, {});
    expect(refused.statusCode).toBe(409);
    expect(errorOf(refused)).toEqual({ code: "api_token_limit_reached", message: CAP_TEXT.apiTokens(3) });
    expect((await rowOf(started.user_code)).status).toBe("pending");
  });

  it("whoami tells a session its user, and a one-site token its site", async () => {
    const { client, user } = await signedInClient(server);
    expect((await client.get("/api/whoami")).json<WhoAmIResponse>()).toEqual({ user: { email: user.email, name: user.name }, token: null });
    const site = await createSiteWith(client, htmlFile());
    const scoped = await createToken(client, "read", { siteId: site.id, name: "Preview" });
    const answer = (await tokenClient(server, scoped.secret).get("/api/whoami")).json<WhoAmIResponse>();
    expect(answer.token).toEqual({ name: "Preview", permission: "read", site: { id: site.id, subdomain: site.subdomain }, expires_at: null });
  });

  it("the worker deletes requests a day after they lapse", async () => {
    const { started } = await start();
    const { started: recent } = await start();
    await server.ctx.db
      .update(deviceLogins)
      .set({ expires_at: new Date(Date.now() - 25 * 60 * 60 * 1000) })
      .where(eq(deviceLogins.user_code, normalizeUserCode(started.user_code)!));
    await runWorkerTick(server.ctx);
    const left = await server.ctx.db.select({ code: deviceLogins.user_code }).from(deviceLogins);
    expect(left.map((r) => r.code)).not.toContain(normalizeUserCode(started.user_code));
    expect(left.map((r) => r.code)).toContain(normalizeUserCode(recent.user_code));
  });
});
