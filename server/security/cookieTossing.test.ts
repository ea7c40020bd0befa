// Cookie tossing: sites share a parent domain with each other, and with the dashboard where an
// operator overrides the start-up check (BERTH_ALLOW_SHARED_DOMAIN, for development), so a hosted
// page can plant cookies that the browser then sends to a neighbour or to the dashboard's API. The
// edge never lets a site set or clear cookies through _headers, its own cookies are host-only, and
// on the API a flood of junk cookies or a planted second session cookie never makes the request
// someone else's: it stays the owner's, or at worst has no session (401).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { DRIVERS, getTestServer, type TestServer } from "../test/support";
import { buildUser, setPlan, signedInClient, type BuiltUser } from "../test/factories";
import { createSiteWith, hostOf, postMultipart, zipOf } from "../test/sites";
import { users } from "../db/schema";
import type { DeploymentResponse, SiteResponse } from "../../common/sites";
import type { MeResponse } from "../../common/api";

/** How a browser signed in at `origin` would carry the session: "name=value". */
async function sessionCookieAt(server: TestServer, user: BuiltUser, origin: string): Promise<{ name: string; pair: string; setCookie: string }> {
  const response = await server.app.inject({
    method: "POST",
    url: "/api/auth/sign-in/email",
    headers: { origin, "content-type": "application/json" },
    payload: JSON.stringify({ email: user.email, password: user.password }),
  });
  if (response.statusCode !== 200) throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`);
  const setCookie = [response.headers["set-cookie"] ?? []].flat().find((c) => /session_token=/.test(c))!;
  const pair = setCookie.split(";")[0]!;
  return { name: pair.slice(0, pair.indexOf("=")), pair, setCookie };
}

/** 200 cookies a page could plant: random names, look-alikes of Berth's, odd but legal values. */
function junkCookies(): string[] {
  return Array.from({ length: 200 }, (_, i) => {
    const names = [`junk${i}`, `berth.junk${i}`, `__Secure-junk${i}`, `BERTH.SESSION_TOKEN${i}`, `berth.session_token${i}`, `_ga${i}`];
    const values = ["x", "", `"quoted${i}"`, "a".repeat(40), "%00%ff", "=equals=inside="];
    return `${names[i % names.length]}=${values[i % values.length]}`;
  });
}

const DEPLOYMENTS: Array<{ name: string; env: Record<string, string>; origin: string }> = [
  { name: "over HTTP", env: {}, origin: "http://localhost:8080" },
  // The dashboard under the sites' own domain: Berth refuses to start so unless told to allow it.
  {
    name: "over HTTPS",
    env: { BERTH_APP_URL: "https://berth.example.com", BERTH_SITES_DOMAIN: "example.com", BERTH_ALLOW_SHARED_DOMAIN: "true" },
    origin: "https://berth.example.com",
  },
];

describe.each(DRIVERS)("cookie tossing (%s)", (driver) => {
  describe.each(DEPLOYMENTS)("the API, $name", ({ env, origin }) => {
    let server: TestServer;
    let owner: BuiltUser;
    let planter: BuiltUser;
    let real: Awaited<ReturnType<typeof sessionCookieAt>>;
    let planted: Awaited<ReturnType<typeof sessionCookieAt>>;

    beforeAll(async () => {
      server = await getTestServer(driver, { env });
      owner = await buildUser(server);
      planter = await buildUser(server);
      real = await sessionCookieAt(server, owner, origin);
      planted = await sessionCookieAt(server, planter, origin);
    });
    afterAll(() => server.close());

    /** Who /api/me and better-auth's own get-session say the request is: an e-mail, or 401. */
    async function whoIs(cookie: string): Promise<string> {
      const me = await server.app.inject({ method: "GET", url: "/api/me", headers: { cookie } });
      const session = await server.app.inject({ method: "GET", url: "/api/auth/get-session", headers: { cookie } });
      const viaAuth = session.statusCode === 200 && session.body !== "null" ? session.json<{ user: { email: string } }>().user.email : "401";
      const viaApi = me.statusCode === 200 ? me.json<MeResponse>().user.email : String(me.statusCode);
      expect(viaAuth, `better-auth and the API disagree for ${cookie.slice(0, 200)}`).toBe(viaApi === "401" ? "401" : viaApi);
      return viaApi;
    }

    it("sets the session cookie host-only, HttpOnly and SameSite=Lax (and __Host-, Secure over HTTPS)", () => {
      expect(real.setCookie).not.toMatch(/;\s*domain=/i);
      expect(real.setCookie).toMatch(/;\s*HttpOnly/i);
      expect(real.setCookie).toMatch(/;\s*SameSite=Lax/i);
      expect(real.setCookie).toMatch(/;\s*Path=\/(;|$)/i);
      if (origin.startsWith("https:")) {
        expect(real.name).toBe("__Host-berth.session_token");
        expect(real.setCookie).toMatch(/;\s*Secure/i);
      }
    });

    it("keeps the owner's session among 200 junk cookies, before and after it", async () => {
      const junk = junkCookies();
      expect(await whoIs([...junk.slice(0, 100), real.pair, ...junk.slice(100)].join("; "))).toBe(owner.email);
      expect(await whoIs([real.pair, ...junk].join("; "))).toBe(owner.email);
      expect(await whoIs([...junk, real.pair].join("; "))).toBe(owner.email);
    });

    it.each([
      ["before", (bogus: string, realPair: string) => `${bogus}; ${realPair}`],
      ["after", (bogus: string, realPair: string) => `${realPair}; ${bogus}`],
    ])("a bogus duplicate session cookie %s the real one: the owner or 401, never anyone else", async (_where, order) => {
      for (const value of ["bogus", "", `${planted.pair.split("=")[1]!.split(".")[0]}.forged-signature`, real.pair.split("=")[1]!.slice(0, -2)]) {
        const answer = await whoIs(order(`${real.name}=${value}`, real.pair));
        expect([owner.email, "401"], value).toContain(answer);
      }
    });

    it.each([
      ["before", (plantedPair: string, realPair: string) => `${plantedPair}; ${realPair}`],
      ["after", (plantedPair: string, realPair: string) => `${realPair}; ${plantedPair}`],
    ])("another user's valid session planted %s the real one never signs the owner in as them", async (_where, order) => {
      const cookie = order(`${real.name}=${planted.pair.split("=").slice(1).join("=")}`, real.pair);
      expect(await whoIs(cookie)).toBe("401");
      // Nor does a write through better-auth land on either account.
      const write = await server.app.inject({
        method: "POST",
        url: "/api/auth/update-user",
        headers: { cookie, origin, "content-type": "application/json" },
        payload: JSON.stringify({ name: "Written through a planted cookie" }),
      });
      expect(write.statusCode).toBe(401);
      const names = (await server.ctx.db.select({ name: users.name }).from(users).where(eq(users.email, planter.email))).map((u) => u.name);
      expect(names).toEqual([planter.name]);
      // Once the planted cookie is gone, the owner's own session works again.
      expect(await whoIs(real.pair)).toBe(owner.email);
    });

    it("ignores a planted cookie under a sibling name: __Secure- or unprefixed beside __Host- (HTTPS), or the prefixed ones over HTTP", async () => {
      const value = planted.pair.split("=").slice(1).join("=");
      const siblings = origin.startsWith("https:")
        ? ["__Secure-berth.session_token", "berth.session_token"]
        : ["__Secure-berth.session_token", "__Host-berth.session_token"];
      for (const name of siblings) {
        expect(await whoIs(`${name}=${value}; ${real.pair}`), name).toBe(owner.email);
        expect(await whoIs(`${real.pair}; ${name}=${value}`), name).toBe(owner.email);
        // Alone, the sibling opens nothing.
        expect(await whoIs(`${name}=${value}`), name).toBe("401");
      }
    });
  });

  describe("the edge", () => {
    let server: TestServer;
    let client: Awaited<ReturnType<typeof signedInClient>>["client"];
    let site: SiteResponse;

    beforeAll(async () => {
      server = await getTestServer(driver);
      const owner = await signedInClient(server);
      client = owner.client;
      await setPlan(server, owner.user.id, "pro");
      site = await createSiteWith(client, {
        name: "site.zip",
        content: await zipOf([
          { name: "index.html", data: "<h1>Home</h1>" },
          { name: "_headers", data: "/*\n  X-Robots-Tag: noindex\n" },
        ]),
        type: "application/zip",
      });
    });
    afterAll(() => server.close());

    it.each([
      "Set-Cookie: berth.session_token=planted; Domain=localhost; Path=/",
      "set-cookie: berth.session_token=planted; Domain=.localhost",
      "SET-COOKIE: a=b",
      "  Set-Cookie   : a=b",
    ])("refuses a _headers line that sets a cookie (%s), and the old version stays live", async (line) => {
      const response = await postMultipart(
        client,
        `/api/sites/${site.id}/files`,
        {},
        { name: "_headers", content: `/*\n  ${line}\n`, type: "text/plain" },
      );
      const deployment = response.json<{ deployment: DeploymentResponse }>().deployment;
      expect(deployment.status).toBe("failed");
      expect(deployment.error).toMatch(/^_headers line 2: Set-Cookie cannot be set: sites cannot set cookies through _headers$/i);
      const served = await server.edge.get(hostOf(site.url), "/");
      expect(served.status).toBe(200);
      expect(served.headers["set-cookie"]).toBeUndefined();
      expect(served.headers["x-robots-tag"]).toBe("noindex");
    });

    it.each([
      [
        'Clear-Site-Data: "cookies"',
        "Clear-Site-Data cannot be set: it clears cookies of every site under the same parent domain, not only this site's",
      ],
      ['clear-site-data: "*"', "clear-site-data cannot be set: it clears cookies of every site under the same parent domain, not only this site's"],
      [
        "Set-Cookie2: berth.session_token=planted; Domain=.localhost; Version=1",
        "Set-Cookie2 cannot be set: sites cannot set cookies through _headers",
      ],
      [
        "Strict-Transport-Security: max-age=31536000; includeSubDomains",
        "Strict-Transport-Security cannot use includeSubDomains: it would force HTTPS on every host under this one, which need not be this site's",
      ],
    ])("refuses %j, which reaches past the site's own host, and the old version stays live", async (line, reason) => {
      const response = await postMultipart(
        client,
        `/api/sites/${site.id}/files`,
        {},
        { name: "_headers", content: `/*\n  ${line}\n`, type: "text/plain" },
      );
      const deployment = response.json<{ deployment: DeploymentResponse }>().deployment;
      expect(deployment.status).toBe("failed");
      expect(deployment.error).toBe(`_headers line 2: ${reason}`);
      const served = await server.edge.get(hostOf(site.url), "/");
      expect(served.status).toBe(200);
      expect(served.headers["clear-site-data"]).toBeUndefined();
      expect(served.headers["set-cookie2"]).toBeUndefined();
      expect(served.headers["strict-transport-security"]).toBeUndefined();
      expect(served.headers["x-robots-tag"]).toBe("noindex");
    });

    it("sets only host-only cookies of its own (site password and share links), never named like the dashboard's", async () => {
      const host = hostOf(site.url);
      expect((await client.request("PUT", `/api/sites/${site.id}/password`, { json: { password: "a long site password" } })).statusCode).toBe(200);
      const pass = await server.edge.get(host, "/.berth/password", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ password: "a long site password", next: "/" }).toString(),
      });
      const link = await client.post(`/api/sites/${site.id}/share-links`, { name: "Friend" });
      const share = await server.edge.get(host, new URL(link.json<{ url: string }>().url).pathname);
      for (const response of [pass, share]) {
        expect(response.status).toBe(303);
        const cookies = [response.headers["set-cookie"] ?? []].flat();
        expect(cookies).toHaveLength(1);
        expect(cookies[0]).not.toMatch(/;\s*domain=/i);
        expect(cookies[0]).toMatch(/;\s*HttpOnly/i);
        expect(cookies[0]).not.toMatch(/^(__Host-|__Secure-)?berth\./);
      }
      // The dashboard's session cookie sent to a site host is neither echoed nor needed.
      const served = await server.edge.get(host, "/", {
        headers: { cookie: `berth.session_token=${"x".repeat(40)}; ${String(pass.headers["set-cookie"]).split(";")[0]}` },
      });
      expect(served.status).toBe(200);
      expect(served.headers["set-cookie"]).toBeUndefined();
      expect(served.text).not.toContain("x".repeat(40));
    });
  });
});
