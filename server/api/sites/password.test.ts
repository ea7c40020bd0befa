// Password-protected sites: the API (Pro only to set, anyone to remove) and the edge, which shows
// the password page on every host and path until a valid pass cookie for that site comes back.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { rowsOf } from "../../db/rows";
import { DRIVERS, getTestServer, type TestServer } from "../../test/support";
import { ownerWithSite as ownerWithSiteOf, setPlan, signedInClient } from "../../test/factories";
import { hostOf } from "../../test/sites";
import { sites } from "../../db/schema";
import { updateSitePassword } from "../../db/repositories/sites";
import { hashSitePassword } from "../../auth/sitePasswords";
import { SITE_PASSWORD_LIMIT } from "../../../common/limits";
import { SITE_PASSWORD_TEXT, type SiteResponse } from "../../../common/sites";
import type { TestClient } from "../../test/support";

const PASSWORD = "correct horse battery";
const put = (client: TestClient, siteId: string, password: string) => client.request("PUT", `/api/sites/${siteId}/password`, { json: { password } });

describe.each(DRIVERS)("site password (%s)", (driver) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer(driver);
  });
  afterAll(() => server.close());

  const ownerWithSite = (plan: "free" | "pro") =>
    ownerWithSiteOf(server, plan, [
      { name: "index.html", data: "<h1>Secret</h1>" },
      { name: "app.js", data: "console.log('0123456789')" },
    ]);

  describe("PUT and DELETE /api/sites/:id/password", () => {
    it("needs a session", async () => {
      const { site } = await ownerWithSite("pro");
      expect((await put(server.client(), site.id, PASSWORD)).statusCode).toBe(401);
      expect((await server.client().delete(`/api/sites/${site.id}/password`)).statusCode).toBe(401);
    });

    it("answers 404 for another user's site, even a Pro user's, and changes nothing", async () => {
      const { site } = await ownerWithSite("pro");
      const other = await signedInClient(server);
      await setPlan(server, other.user.id, "pro");
      const response = await put(other.client, site.id, PASSWORD);
      expect(response.statusCode).toBe(404);
      expect(response.json().error.code).toBe("site_not_found");
      expect((await other.client.delete(`/api/sites/${site.id}/password`)).statusCode).toBe(404);
      const [row] = await server.ctx.db.select().from(sites).where(eq(sites.id, site.id));
      expect(row!.password_hash).toBeNull();
    });

    it("refuses a Free owner who sets a password with 403 pro_required, and lets them remove one", async () => {
      const { client, site, user } = await ownerWithSite("free");
      const refused = await put(client, site.id, PASSWORD);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error).toMatchObject({
        code: "pro_required",
        message: "Password protection is a Pro feature. Upgrade to Pro to protect this site.",
      });
      // An owner who was Pro and went back to Free can still open the site again.
      await updateSitePassword(server.ctx.db, user.id, site.id, await hashSitePassword(PASSWORD));
      expect((await client.get(`/api/sites/${site.id}`)).json().password_protected).toBe(true);
      const removed = await client.delete(`/api/sites/${site.id}/password`);
      expect(removed.statusCode).toBe(200);
      expect(removed.json()).toMatchObject({ id: site.id, password_protected: false });
    });

    it("lets a Pro owner set, change and remove it; the hash is stored as scrypt and never shown", async () => {
      const { client, site } = await ownerWithSite("pro");
      expect(site.password_protected).toBe(false);
      const set = await put(client, site.id, PASSWORD);
      expect(set.statusCode).toBe(200);
      expect(set.json()).toMatchObject({ id: site.id, password_protected: true });
      expect(set.body).not.toContain("scrypt");
      const [row] = await server.ctx.db.select().from(sites).where(eq(sites.id, site.id));
      expect(row!.password_hash).toMatch(/^scrypt\$16384\$8\$1\$[\w-]+\$[\w-]+$/);
      expect(row!.password_version).toBe(1);
      const listed = (await client.get("/api/sites")).json().sites as SiteResponse[];
      expect(listed.find((s) => s.id === site.id)?.password_protected).toBe(true);

      expect((await put(client, site.id, "another password")).statusCode).toBe(200);
      const [changed] = await server.ctx.db.select().from(sites).where(eq(sites.id, site.id));
      expect(changed!.password_version).toBe(2);
      expect(changed!.password_hash).not.toBe(row!.password_hash);

      const removed = await client.delete(`/api/sites/${site.id}/password`);
      expect(removed.json()).toMatchObject({ password_protected: false });
    });

    it.each([
      ["a password that is too short", { password: "short" }, SITE_PASSWORD_TEXT.tooShort],
      ["a missing password", {}, undefined],
    ])("refuses %s with 400", async (_name, body, message) => {
      const { client, site } = await ownerWithSite("pro");
      const response = await client.request("PUT", `/api/sites/${site.id}/password`, { json: body });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.code).toBe("invalid_request");
      if (message) expect(response.json().error.message).toBe(message);
      expect((await client.get(`/api/sites/${site.id}`)).json().password_protected).toBe(false);
    });
  });

  describe("the edge", () => {
    const hostsOf = (site: SiteResponse) => [hostOf(site.url), `${site.subdomain}--v1.localhost:8080`];
    const requests: [name: string, path: string, options: { method?: string; headers?: Record<string, string> }][] = [
      ["GET /", "/", {}],
      ["GET an asset", "/app.js", {}],
      ["HEAD /", "/", { method: "HEAD" }],
      ["HEAD an asset", "/app.js", { method: "HEAD" }],
      ["a Range request", "/app.js", { headers: { range: "bytes=0-3" } }],
      ["the reserved path", "/.berth/password", {}],
    ];

    /** Posts the password form; each call comes from the test's own address unless one is given. */
    const enter = (host: string, password: string, next = "/app.js", headers: Record<string, string> = {}) =>
      server.edge.get(host, "/.berth/password", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
        body: new URLSearchParams({ password, next }).toString(),
      });

    const passOf = (setCookie: string | string[] | undefined) => String(setCookie).split(";")[0]!;

    async function protectedSite() {
      const owner = await ownerWithSite("pro");
      // Warm first: the hosts are cached before the password is set, so the event must drop them.
      for (const host of hostsOf(owner.site)) expect((await server.edge.get(host, "/app.js")).status).toBe(200);
      expect((await put(owner.client, owner.site.id, PASSWORD)).statusCode).toBe(200);
      return owner;
    }

    it("shows the password page on every host and path, HEAD and Range included, and never a file byte", async () => {
      const { site } = await protectedSite();
      for (const host of hostsOf(site)) {
        for (const [name, path, options] of requests) {
          const response = await server.edge.get(host, path, options);
          const what = `${host} ${name}`;
          expect(response.status, what).toBe(401);
          expect(response.headers["cache-control"], what).toBe("no-store");
          expect(response.headers["referrer-policy"], what).toBe("no-referrer");
          expect(response.headers["x-frame-options"], what).toBe("DENY");
          expect(response.headers["content-range"], what).toBeUndefined();
          expect(response.text, what).not.toContain("Secret");
          expect(response.text, what).not.toContain("console.log");
          if (options.method === "HEAD") expect(response.body.length).toBe(0);
          else {
            expect(response.text, what).toContain('type="password"');
            expect(response.text, what).not.toContain(site.name);
          }
        }
      }
    });

    it("counts a wrong password, and on the right one sets a host-only 7-day cookie and redirects to next", async () => {
      const { site } = await protectedSite();
      for (const host of hostsOf(site)) {
        const wrong = await enter(host, "not the password");
        expect(wrong.status).toBe(401);
        expect(wrong.text).toContain("That password is not right");
        expect(wrong.headers["set-cookie"]).toBeUndefined();

        const right = await enter(host, PASSWORD, "/app.js?x=1");
        expect(right.status).toBe(303);
        expect(right.headers.location).toBe("/app.js?x=1");
        const cookie = String(right.headers["set-cookie"]);
        expect(cookie).toMatch(/^berth_site_pass=[^;]+; Max-Age=604800; Path=\/; HttpOnly; SameSite=Lax$/);
        expect(cookie.toLowerCase()).not.toContain("domain=");

        const headers = { cookie: `other=1; ${passOf(right.headers["set-cookie"])}` };
        for (const [path, body] of [
          ["/", "<h1>Secret</h1>"],
          ["/app.js", "console.log('0123456789')"],
        ] as const) {
          for (let i = 0; i < 2; i++) {
            // Twice: the second request takes the cached, already verified cookie.
            const served = await server.edge.get(host, path, { headers });
            expect(served.status).toBe(200);
            expect(served.text).toBe(body);
            expect(served.headers["cache-control"]).toBe("no-store");
            expect(served.headers["referrer-policy"]).toBe("no-referrer");
          }
        }
        const range = await server.edge.get(host, "/app.js", { headers: { ...headers, range: "bytes=0-3" } });
        expect(range.status).toBe(206);
        expect(range.text).toBe("cons");
        expect(range.headers["cache-control"]).toBe("no-store");
        expect(range.headers["referrer-policy"]).toBe("no-referrer");
        const head = await server.edge.get(host, "/app.js", { method: "HEAD", headers });
        expect(head.status).toBe(200);
        // The reserved prefix is the edge's on a protected host, even with a pass.
        expect((await server.edge.get(host, "/.berth/anything", { headers })).status).toBe(404);
      }
    });

    it("refuses one site's cookie on another site, and on the same site after the password changes", async () => {
      const a = await protectedSite();
      const b = await protectedSite();
      const hostA = hostOf(a.site.url);
      const hostB = hostOf(b.site.url);
      const passA = passOf((await enter(hostA, PASSWORD)).headers["set-cookie"]);
      expect((await server.edge.get(hostA, "/", { headers: { cookie: passA } })).status).toBe(200);
      expect((await server.edge.get(hostB, "/", { headers: { cookie: passA } })).status).toBe(401);
      // Site B's own pass still works when a pass for A comes first (a cookie tossed from a sibling
      // site with Domain= set arrives beside the host's own).
      const passB = passOf((await enter(hostB, PASSWORD)).headers["set-cookie"]);
      expect((await server.edge.get(hostB, "/", { headers: { cookie: `${passA}; ${passB}` } })).status).toBe(200);
      // A forged signature is refused too.
      const forged = passA.slice(0, -4) + (passA.endsWith("AAAA") ? "BBBB" : "AAAA");
      expect((await server.edge.get(hostA, "/", { headers: { cookie: forged } })).status).toBe(401);

      expect((await put(a.client, a.site.id, "a brand new password")).statusCode).toBe(200);
      expect((await server.edge.get(hostA, "/", { headers: { cookie: passA } })).status).toBe(401);
      expect((await enter(hostA, PASSWORD)).status).toBe(401);
      expect((await enter(hostA, "a brand new password")).status).toBe(303);
    });

    it.each([
      ["an absolute URL", "https://evil.example/"],
      ["a scheme-relative URL", "//evil.example/"],
      ["a backslash trick", "/\\evil.example"],
      ["a javascript: URL", "javascript:alert(1)"],
    ])("refuses an open redirect through next (%s): it goes to /", async (_name, next) => {
      const { site } = await protectedSite();
      const response = await enter(hostOf(site.url), PASSWORD, next);
      expect(response.status).toBe(303);
      expect(response.headers.location).toBe("/");
    });

    it("answers 429 after too many wrong passwords from one address, even with the right one, until the window passes", async () => {
      const { site } = await protectedSite();
      const host = hostOf(site.url);
      for (let i = 0; i < SITE_PASSWORD_LIMIT.max; i++) expect((await enter(host, `wrong ${i}`)).status).toBe(401);
      const limited = await enter(host, PASSWORD);
      expect(limited.status).toBe(429);
      expect(limited.text).toContain("Too many wrong passwords");
      expect(limited.headers["set-cookie"]).toBeUndefined();
      // The counters live in the database, per site and address: the window's end frees it.
      const key = `berth:site-password:${site.id}:%`;
      const [row] = rowsOf<{ count: number }>(await server.ctx.db.execute(sql`select count from rate_limits where key like ${key}`));
      // Every attempt is counted before the check, the refused one too; only a right password gives its count back.
      expect(Number(row!.count)).toBe(SITE_PASSWORD_LIMIT.max + 1);
      // As if the window had passed.
      await server.ctx.db.execute(sql`update rate_limits set last_request = 0 where key like ${key}`);
      expect((await enter(host, PASSWORD)).status).toBe(303);
    });

    it("counts only wrong passwords: visitors behind one address who know it all get in", async () => {
      const { site } = await protectedSite();
      const host = hostOf(site.url);
      for (let i = 0; i < SITE_PASSWORD_LIMIT.max - 1; i++) expect((await enter(host, `wrong ${i}`)).status).toBe(401);
      // Each right password is counted before scrypt runs, then given back.
      for (let i = 0; i < SITE_PASSWORD_LIMIT.max + 2; i++) expect((await enter(host, PASSWORD)).status, `visitor ${i + 1}`).toBe(303);
      expect((await enter(host, "wrong again")).status).toBe(401);
      expect((await enter(host, PASSWORD)).status).toBe(429);
    });

    it("serves files normally again once the password is removed, and /.berth/ belongs to unprotected sites", async () => {
      const { client, site } = await protectedSite();
      expect((await client.delete(`/api/sites/${site.id}/password`)).statusCode).toBe(200);
      for (const host of hostsOf(site)) {
        const served = await server.edge.get(host, "/app.js");
        expect(served.status).toBe(200);
        expect(served.headers["cache-control"]).not.toBe("no-store");
        expect(served.headers["referrer-policy"]).toBeUndefined();
        expect((await server.edge.get(host, "/.berth/password")).status).toBe(404);
        expect((await enter(host, PASSWORD)).status).toBe(405);
      }
    });
  });
});
