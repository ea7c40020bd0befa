// Rate limits hold against a client that changes the headers proxies use to name the client:
// sign-in, password reset, the contact form and the CLI's sign-in requests on the API, site and
// share-link passwords on the edge. Without BERTH_TRUST_PROXY every such header is ignored; with it, only the address the
// proxy itself appended (the last one) counts, so rotating the rest changes nothing either.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DRIVERS, getTestServer, TEST_APP_URL, type TestServer } from "../test/support";
import { buildUser, ownerWithSite } from "../test/factories";
import { hostOf } from "../test/sites";
import { AUTH_LIMITS, CONTACT_LIMIT, DEVICE_LOGIN_START_LIMIT, SHARE_LINK_PASSWORD_LIMIT, SITE_PASSWORD_LIMIT } from "../../common/limits";
import { CLIENT_IP_HEADER } from "../auth/auth";

const PEER = "198.51.100.23";
const SITE_PASSWORD = "a long site password";

/** The i-th set of headers a client sends to look like a new visitor each time. */
function disguise(i: number, proxied: boolean): Record<string, string> {
  const fake = `203.0.${Math.floor(i / 250)}.${(i % 250) + 1}`;
  const headers: Record<string, string> = {
    "x-real-ip": fake,
    forwarded: `for=${fake}`,
    "cf-connecting-ip": fake,
    "true-client-ip": fake,
    "x-client-ip": fake,
    [CLIENT_IP_HEADER]: fake,
  };
  // Behind a proxy, the proxy appends the address it saw: the client controls only what is before it.
  headers["x-forwarded-for"] = proxied ? `${fake}, 10.9.9.${i % 200}, ${PEER}` : `${fake}, 10.9.9.${i % 200}`;
  return headers;
}

describe.each(DRIVERS)("rate limits against rotated client headers (%s)", (driver) => {
  describe.each([
    { name: "no proxy trusted", trust: "false" },
    { name: "behind a trusted proxy", trust: "true" },
  ])("$name", ({ trust }) => {
    const proxied = trust === "true";
    let server: TestServer;

    beforeAll(async () => {
      server = await getTestServer(driver, { env: { BERTH_TRUST_PROXY: trust } });
    });
    afterAll(() => server.close());

    /** A POST to the API from the peer (or, behind the proxy, from the proxy on the peer's behalf). */
    const post = (url: string, body: unknown, i: number, remote = proxied ? "127.0.0.1" : PEER) =>
      server.app.inject({
        method: "POST",
        url,
        remoteAddress: remote,
        headers: { ...disguise(i, proxied), origin: TEST_APP_URL, "content-type": "application/json" },
        payload: JSON.stringify(body),
      });

    it("sign-in: the attempt after the limit gets 429 whatever the headers say", async () => {
      const user = await buildUser(server);
      const wrong = (i: number) => post("/api/auth/sign-in/email", { email: user.email, password: `wrong guess ${i}` }, i);
      for (let i = 0; i < AUTH_LIMITS.signIn.max; i++) expect((await wrong(i)).statusCode, `attempt ${i + 1}`).toBe(401);
      expect((await wrong(AUTH_LIMITS.signIn.max)).statusCode).toBe(429);
      // Even the right password waits out the window.
      expect((await post("/api/auth/sign-in/email", { email: user.email, password: user.password }, 999)).statusCode).toBe(429);
      if (proxied) {
        // Another real client behind the same proxy still gets in: the limit is per client, not global.
        const other = await server.app.inject({
          method: "POST",
          url: "/api/auth/sign-in/email",
          remoteAddress: "127.0.0.1",
          headers: { "x-forwarded-for": "198.51.100.99", origin: TEST_APP_URL, "content-type": "application/json" },
          payload: JSON.stringify({ email: user.email, password: user.password }),
        });
        expect(other.statusCode).toBe(200);
      }
    });

    it("password reset: no more requests (nor e-mails) than the limit", async () => {
      const user = await buildUser(server);
      const before = server.outbox.messages().length;
      const statuses: number[] = [];
      for (let i = 0; i < AUTH_LIMITS.reset.max + 3; i++) {
        statuses.push((await post("/api/auth/request-password-reset", { email: user.email, redirectTo: "/auth/reset-password" }, i)).statusCode);
      }
      expect(statuses).toEqual([...Array(AUTH_LIMITS.reset.max).fill(200), 429, 429, 429]);
      const sent = server.outbox
        .messages()
        .slice(before)
        .filter((m) => m.to === user.email);
      expect(sent.length).toBeLessThanOrEqual(AUTH_LIMITS.reset.max);
    });

    it("contact form: the message after the limit gets 429", async () => {
      const message = (i: number) =>
        post(
          "/api/contact",
          { name: "Ann", email: "ann@example.com", subject: `Hello ${i}`, message: "Hi." },
          i,
          proxied ? "127.0.0.1" : "198.51.100.24",
        );
      for (let i = 0; i < CONTACT_LIMIT.max; i++) expect((await message(i)).statusCode).toBe(200);
      expect((await message(CONTACT_LIMIT.max)).statusCode).toBe(429);
    });

    it("CLI sign-in requests: the one after the limit gets 429", async () => {
      const start = (i: number) => post("/api/cli/login", { client_name: `laptop ${i}` }, i, proxied ? "127.0.0.1" : "198.51.100.25");
      for (let i = 0; i < DEVICE_LOGIN_START_LIMIT.max; i++) expect((await start(i)).statusCode).toBe(201);
      expect((await start(DEVICE_LOGIN_START_LIMIT.max)).statusCode).toBe(429);
    });

    describe("on the edge", () => {
      let host: string;
      let sharePath: string;

      beforeAll(async () => {
        const owner = await ownerWithSite(server, "pro", [{ name: "index.html", data: "<h1>Protected</h1>" }]);
        host = hostOf(owner.site.url);
        expect((await owner.client.request("PUT", `/api/sites/${owner.site.id}/password`, { json: { password: SITE_PASSWORD } })).statusCode).toBe(
          200,
        );
        const link = await owner.client.post(`/api/sites/${owner.site.id}/share-links`, { name: "Friend", password: SITE_PASSWORD });
        sharePath = new URL(link.json<{ url: string }>().url).pathname;
      });

      // The edge's socket peer is always 127.0.0.1 here: without a trusted proxy that is the
      // client; behind one, the proxy appends the client (PEER) last.
      const form = (path: string, password: string, i: number) =>
        server.edge.get(host, path, {
          method: "POST",
          headers: { ...disguise(i, proxied), "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ password, next: "/" }).toString(),
        });

      it.each([
        ["a site password", () => "/.berth/password", SITE_PASSWORD_LIMIT.max],
        ["a share link's password", () => sharePath, SHARE_LINK_PASSWORD_LIMIT.max],
      ])("%s: 429 after the limit, even for the right password", async (_name, path, max) => {
        for (let i = 0; i < max; i++) expect((await form(path(), `wrong ${i}`, i)).status, `attempt ${i + 1}`).toBe(401);
        const limited = await form(path(), SITE_PASSWORD, max);
        expect(limited.status).toBe(429);
        expect(limited.headers["set-cookie"]).toBeUndefined();
      });
    });
  });
});
