// Share links and private sites on the edge, over a real socket (the edge's own HTTP/1.1 layer for
// plain GET and HEAD, node:http for Range and POST), on every host kind: the subdomain, a
// deployment host and an active custom domain.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { rowsOf } from "../db/rows";
import { domains, shareLinkOpens, shareLinks } from "../db/schema";
import { insertShareLink } from "../db/repositories/shareLinks";
import { updateSitePassword } from "../db/repositories/sites";
import { hashSitePassword } from "../auth/sitePasswords";
import { shareToken } from "../sites/shareTokens";
import { DRIVERS, getTestServer, type TestClient, type TestServer } from "../test/support";
import { ownerWithSite as ownerWithSiteOf } from "../test/factories";
import { hostOf } from "../test/sites";
import { SHARE_LINK_PASSWORD_LIMIT } from "../../common/limits";
import { SHARE_PAGE_TEXT, type ShareLinkResponse } from "../../common/shareLinks";
import type { SiteResponse } from "../../common/sites";
import type { EdgeResponse } from "../test/edgeClient";

const SECRET = "<h1>Secret</h1>";
const ASSET = "console.log('0123456789')";

type Options = { method?: string; headers?: Record<string, string>; body?: string };

/** Every kind of request a visitor can make for a file: none may reach one without a pass. */
const REQUESTS: [name: string, path: string, options: Options][] = [
  ["GET /", "/", {}],
  ["GET an asset", "/app.js", {}],
  ["GET an asset with a query", "/app.js?v=1", {}],
  ["GET a missing path", "/nope.html", {}],
  ["HEAD /", "/", { method: "HEAD" }],
  ["HEAD an asset", "/app.js", { method: "HEAD" }],
  ["a Range request", "/app.js", { headers: { range: "bytes=0-3" } }],
  ["a Range request for /", "/", { headers: { range: "bytes=0-3" } }],
  ["the password path", "/.berth/password", {}],
];

const cookieOf = (response: EdgeResponse) => String(response.headers["set-cookie"]).split(";")[0]!;
const pathOf = (link: ShareLinkResponse) => new URL(link.url).pathname;

describe.each(DRIVERS)("share links and private sites on the edge (%s)", (driver) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer(driver);
  });
  afterAll(() => server.close());

  const customHost = (site: SiteResponse) => `${site.subdomain}.custom-domain.test`;
  const hostsOf = (site: SiteResponse) => [hostOf(site.url), `${site.subdomain}--v1.localhost:8080`, customHost(site)];

  async function owner() {
    const made = await ownerWithSiteOf(server, "pro", [
      { name: "index.html", data: SECRET },
      { name: "app.js", data: ASSET },
      { name: "_share/inside.txt", data: "reserved" },
    ]);
    // An active custom domain, as provisioning leaves it (provisioning is tested on its own).
    await server.ctx.db.insert(domains).values({
      user_id: made.user.id,
      site_id: made.site.id,
      hostname: customHost(made.site),
      verification_token: "t",
      status: "active",
      verified_at: new Date(),
      activated_at: new Date(),
    });
    server.ctx.events.emit("site", { userId: made.user.id, siteId: made.site.id, subdomain: made.site.subdomain });
    await server.ctx.domains.settled();
    // Warm first: the hosts are cached before any change, so every change must drop them.
    for (const host of hostsOf(made.site)) expect((await server.edge.get(host, "/app.js")).status).toBe(200);
    return made;
  }

  const visibility = async (client: TestClient, site: SiteResponse, value: "public" | "private") =>
    expect((await client.request("PUT", `/api/sites/${site.id}/visibility`, { json: { visibility: value } })).statusCode).toBe(200);

  async function privateSite() {
    const made = await owner();
    await visibility(made.client, made.site, "private");
    return made;
  }

  async function linkOf(client: TestClient, site: SiteResponse, body: Record<string, unknown> = {}): Promise<ShareLinkResponse> {
    const response = await client.post(`/api/sites/${site.id}/share-links`, { name: "For a friend", ...body });
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  }

  const viewsOf = async (linkId: string) => (await server.ctx.db.select().from(shareLinks).where(eq(shareLinks.id, linkId)))[0]!.views;

  function expectGuarded(response: EdgeResponse, what: string) {
    expect(response.headers["cache-control"], what).toBe("no-store");
    expect(response.headers["referrer-policy"], what).toBe("no-referrer");
  }

  function expectNoFile(response: EdgeResponse, what: string) {
    expect(response.headers["content-range"], what).toBeUndefined();
    expect(response.text, what).not.toContain("Secret");
    expect(response.text, what).not.toContain("console.log");
  }

  it("answers 403 'This site is private' on every host and path of a private site, HEAD and Range included", async () => {
    const { site } = await privateSite();
    for (const host of hostsOf(site)) {
      for (const [name, path, options] of REQUESTS) {
        const response = await server.edge.get(host, path, options);
        const what = `${host} ${name}`;
        expect(response.status, what).toBe(403);
        expectGuarded(response, what);
        expectNoFile(response, what);
        if (options.method === "HEAD") expect(response.body.length, what).toBe(0);
        else expect(response.text, what).toContain(SHARE_PAGE_TEXT.privateTitle);
      }
    }
  });

  it("opens a private site for the browser that opened a link: every path, HEAD and Range, with protected headers", async () => {
    const { client, site } = await privateSite();
    const link = await linkOf(client, site);
    for (const host of hostsOf(site)) {
      const opened = await server.edge.get(host, pathOf(link), { headers: { "user-agent": "Test browser" } });
      expect(opened.status).toBe(303);
      expect(opened.headers.location).toBe("/");
      expectGuarded(opened, host);
      const setCookie = String(opened.headers["set-cookie"]);
      expect(setCookie).toMatch(/^berth_share=[^;]+; Max-Age=604800; Path=\/; HttpOnly; SameSite=Lax$/);
      expect(setCookie.toLowerCase()).not.toContain("domain=");

      const headers = { cookie: `other=1; ${cookieOf(opened)}` };
      for (const [path, body] of [
        ["/", SECRET],
        ["/app.js", ASSET],
        ["/app.js?v=2", ASSET],
      ] as const) {
        // Twice: the second request takes the cached, already verified cookie.
        for (let i = 0; i < 2; i++) {
          const served = await server.edge.get(host, path, { headers });
          expect(served.status, `${host}${path}`).toBe(200);
          expect(served.text).toBe(body);
          expectGuarded(served, `${host}${path}`);
        }
      }
      const range = await server.edge.get(host, "/app.js", { headers: { ...headers, range: "bytes=0-3" } });
      expect(range.status).toBe(206);
      expect(range.text).toBe("cons");
      expectGuarded(range, `${host} range`);
      const head = await server.edge.get(host, "/app.js", { method: "HEAD", headers });
      expect(head.status).toBe(200);
      expect(head.body.length).toBe(0);
      expectGuarded(head, `${host} head`);
      // Without the cookie, still private.
      expect((await server.edge.get(host, "/app.js")).status).toBe(403);
    }
    // Each open counted and logged, with the user agent and no country.
    expect(await viewsOf(link.id)).toBe(3);
    const opens = (await client.get(`/api/sites/${site.id}/share-links/${link.id}/opens`)).json().opens;
    expect(opens).toHaveLength(3);
    expect(opens[0]).toMatchObject({ country: null, user_agent: "Test browser" });
  });

  it("refuses one site's share cookie on another site, and a forged one", async () => {
    const a = await privateSite();
    const b = await privateSite();
    const cookieA = cookieOf(await server.edge.get(hostOf(a.site.url), pathOf(await linkOf(a.client, a.site))));
    const cookieB = cookieOf(await server.edge.get(hostOf(b.site.url), pathOf(await linkOf(b.client, b.site))));
    expect((await server.edge.get(hostOf(a.site.url), "/", { headers: { cookie: cookieA } })).status).toBe(200);
    for (const host of hostsOf(b.site)) {
      for (const [name, path, options] of REQUESTS) {
        const response = await server.edge.get(host, path, { ...options, headers: { ...options.headers, cookie: cookieA } });
        expect(response.status, `${host} ${name}`).toBe(403);
        expectNoFile(response, `${host} ${name}`);
      }
      // B's own cookie still works beside A's (a sibling site can toss a cookie of the same name).
      expect((await server.edge.get(host, "/", { headers: { cookie: `${cookieA}; ${cookieB}` } })).status).toBe(200);
    }
    // A's cookie with B's site id in it: the signature no longer matches.
    const [, value] = cookieA.split("=");
    const parts = value!.split(".");
    const renamed = `berth_share=${[b.site.id, ...parts.slice(1)].join(".")}`;
    expect((await server.edge.get(hostOf(b.site.url), "/", { headers: { cookie: renamed } })).status).toBe(403);
    const forged = cookieA.slice(0, -4) + (cookieA.endsWith("AAAA") ? "BBBB" : "AAAA");
    expect((await server.edge.get(hostOf(a.site.url), "/", { headers: { cookie: forged } })).status).toBe(403);
  });

  it("answers 404 for a tampered token and for another site's link, counting nothing", async () => {
    const a = await privateSite();
    const b = await privateSite();
    const link = await linkOf(a.client, a.site);
    const other = await linkOf(b.client, b.site);
    const path = pathOf(link);
    const flip = (c: string) => (c === "A" ? "B" : "A");
    const tampered = [
      path.slice(0, -1) + flip(path.at(-1)!),
      path.slice(0, 9) + flip(path[9]!) + path.slice(10),
      path.slice(0, -1),
      `${path}A`,
      "/_share/",
      "/_share/not-a-token",
      `/_share/${shareToken({ ...server.ctx.shareKeys, token: Buffer.alloc(32, 1) }, link.id)}`,
      // A real token, of a link of another site.
      pathOf(other),
    ];
    for (const host of hostsOf(a.site)) {
      for (const candidate of tampered) {
        const response = await server.edge.get(host, candidate);
        expect(response.status, candidate).toBe(404);
        expect(response.text).toContain(SHARE_PAGE_TEXT.notFoundTitle);
        expect(response.headers["set-cookie"]).toBeUndefined();
        expectGuarded(response, candidate);
      }
    }
    // Posted to, too (the password form's path): 404, whatever the body.
    for (const candidate of [tampered[0]!, pathOf(other)]) {
      const posted = await server.edge.get(hostOf(a.site.url), candidate, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "password=x",
      });
      expect(posted.status, candidate).toBe(404);
    }
    expect(await viewsOf(link.id)).toBe(0);
    expect(await viewsOf(other.id)).toBe(0);
  });

  it("opens a link with max views 2 twice; the third browser gets 410, the first ones keep access", async () => {
    const { client, site } = await privateSite();
    const link = await linkOf(client, site, { maxViews: 2 });
    const host = hostOf(site.url);
    const first = await server.edge.get(host, pathOf(link));
    const second = await server.edge.get(`${site.subdomain}--v1.localhost:8080`, pathOf(link));
    expect([first.status, second.status]).toEqual([303, 303]);
    const third = await server.edge.get(host, pathOf(link));
    expect(third.status).toBe(410);
    expect(third.text).toContain(SHARE_PAGE_TEXT.goneTitle);
    expect(third.headers["set-cookie"]).toBeUndefined();
    expectGuarded(third, "third");
    expect(await viewsOf(link.id)).toBe(2);
    expect((await client.get(`/api/sites/${site.id}/share-links`)).json().links[0]).toMatchObject({ views: 2, state: "exhausted" });
    // The first browser keeps access, and opening the link again costs nothing.
    const headers = { cookie: cookieOf(first) };
    expect((await server.edge.get(host, "/", { headers })).status).toBe(200);
    const again = await server.edge.get(host, pathOf(link), { headers });
    expect(again.status).toBe(303);
    expect(await viewsOf(link.id)).toBe(2);
    expect(await server.ctx.db.select().from(shareLinkOpens).where(eq(shareLinkOpens.link_id, link.id))).toHaveLength(2);
  });

  it("counts at most max views when browsers race for the last one", async () => {
    const { client, site } = await privateSite();
    const link = await linkOf(client, site, { maxViews: 3 });
    const answers = await Promise.all(Array.from({ length: 8 }, () => server.edge.get(hostOf(site.url), pathOf(link))));
    expect(answers.filter((r) => r.status === 303)).toHaveLength(3);
    expect(answers.filter((r) => r.status === 410)).toHaveLength(5);
    expect(await viewsOf(link.id)).toBe(3);
  });

  it("answers 410 for a revoked link, and revoking ends the access it gave; restoring brings it back", async () => {
    const { client, site } = await privateSite();
    const link = await linkOf(client, site);
    const cookie = cookieOf(await server.edge.get(hostOf(site.url), pathOf(link)));
    expect((await client.patch(`/api/sites/${site.id}/share-links/${link.id}`, { revoked: true })).statusCode).toBe(200);
    for (const host of hostsOf(site)) {
      const gone = await server.edge.get(host, pathOf(link));
      expect(gone.status).toBe(410);
      expect(gone.text).toContain(SHARE_PAGE_TEXT.goneTitle);
      expect((await server.edge.get(host, "/", { headers: { cookie } })).status).toBe(403);
      expect((await server.edge.get(host, "/app.js", { headers: { cookie, range: "bytes=0-3" } })).status).toBe(403);
    }
    expect((await client.patch(`/api/sites/${site.id}/share-links/${link.id}`, { revoked: false })).statusCode).toBe(200);
    expect((await server.edge.get(hostOf(site.url), "/", { headers: { cookie } })).status).toBe(200);
    // Deleting the link ends it too.
    expect((await client.delete(`/api/sites/${site.id}/share-links/${link.id}`)).statusCode).toBe(204);
    expect((await server.edge.get(hostOf(site.url), "/", { headers: { cookie } })).status).toBe(403);
    expect((await server.edge.get(hostOf(site.url), pathOf(link))).status).toBe(404);
  });

  it("answers 410 once a link has expired, and its cookie lasts no longer than the link", async () => {
    const { client, site, user } = await privateSite();
    const expiresAt = Date.now() + 3000;
    const row = await insertShareLink(server.ctx.db, {
      site_id: site.id,
      user_id: user.id,
      name: "Brief",
      expires_at: new Date(expiresAt),
      password_hash: null,
      max_views: null,
    });
    // Made behind the API's back: tell the edge, as the service would.
    server.ctx.events.emit("site", { userId: user.id, siteId: site.id, subdomain: site.subdomain });
    const path = `/_share/${shareToken(server.ctx.shareKeys, row.id)}`;
    const opened = await server.edge.get(hostOf(site.url), path);
    expect(opened.status).toBe(303);
    const maxAge = Number(/Max-Age=(\d+)/.exec(String(opened.headers["set-cookie"]))![1]);
    expect(maxAge).toBeLessThanOrEqual(3);
    const headers = { cookie: cookieOf(opened) };
    expect((await server.edge.get(hostOf(site.url), "/", { headers })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, expiresAt - Date.now() + 50));
    for (const host of hostsOf(site)) {
      expect((await server.edge.get(host, path)).status).toBe(410);
      expect((await server.edge.get(host, "/", { headers })).status).toBe(403);
    }
    expect((await client.get(`/api/sites/${site.id}/share-links`)).json().links[0].state).toBe("expired");
  });

  it("asks for a link's password, counts only the right one, and rate-limits wrong guesses per link and address", async () => {
    const { client, site } = await privateSite();
    const link = await linkOf(client, site, { password: "open sesame" });
    const enter = (host: string, password: string) =>
      server.edge.get(host, pathOf(link), {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ password }).toString(),
      });
    for (const host of hostsOf(site)) {
      const asked = await server.edge.get(host, pathOf(link));
      expect(asked.status).toBe(401);
      expect(asked.text).toContain(SHARE_PAGE_TEXT.passwordTitle);
      expect(asked.text).toContain(`action="${pathOf(link)}"`);
      expect(asked.headers["x-frame-options"]).toBe("DENY");
      expectGuarded(asked, host);
      expectNoFile(asked, host);
      const head = await server.edge.get(host, pathOf(link), { method: "HEAD" });
      expect(head.status).toBe(401);
    }
    expect(await viewsOf(link.id)).toBe(0);

    const host = hostOf(site.url);
    const tooLarge = await server.edge.get(host, pathOf(link), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `password=${"x".repeat(10_000)}`,
    });
    expect(tooLarge.status).toBe(413);
    const wrong = await enter(host, "not it");
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain(SHARE_PAGE_TEXT.wrongPassword);
    expect(wrong.headers["set-cookie"]).toBeUndefined();
    expect(await viewsOf(link.id)).toBe(0);

    const right = await enter(`${site.subdomain}--v1.localhost:8080`, "open sesame");
    expect(right.status).toBe(303);
    expect(right.headers.location).toBe("/");
    expect((await server.edge.get(`${site.subdomain}--v1.localhost:8080`, "/app.js", { headers: { cookie: cookieOf(right) } })).text).toBe(ASSET);
    expect(await viewsOf(link.id)).toBe(1);

    for (let i = 1; i < SHARE_LINK_PASSWORD_LIMIT.max; i++) expect((await enter(host, `wrong ${i}`)).status).toBe(401);
    const limited = await enter(host, "open sesame");
    expect(limited.status).toBe(429);
    expect(limited.text).toContain(SHARE_PAGE_TEXT.tooManyPasswords);
    expect(limited.headers["set-cookie"]).toBeUndefined();
    expect(await viewsOf(link.id)).toBe(1);
    const key = `berth:share-password:${link.id}:%`;
    const [row] = rowsOf<{ count: number }>(await server.ctx.db.execute(sql`select count from rate_limits where key like ${key}`));
    // Every attempt is counted before the check, the refused one too; only a right password gives its count back.
    expect(Number(row!.count)).toBe(SHARE_LINK_PASSWORD_LIMIT.max + 1);
    // As if the window had passed.
    await server.ctx.db.execute(sql`update rate_limits set last_request = 0 where key like ${key}`);
    expect((await enter(host, "open sesame")).status).toBe(303);
  });

  it("opens a password-protected site with a share cookie; a private site never takes the site password", async () => {
    const { client, site, user } = await owner();
    await updateSitePassword(server.ctx.db, user.id, site.id, await hashSitePassword("site password"));
    server.ctx.events.emit("site", { userId: user.id, siteId: site.id, subdomain: site.subdomain });
    const link = await linkOf(client, site);
    for (const host of hostsOf(site)) {
      expect((await server.edge.get(host, "/")).status).toBe(401);
      const cookie = cookieOf(await server.edge.get(host, pathOf(link)));
      const served = await server.edge.get(host, "/app.js", { headers: { cookie } });
      expect(served.status).toBe(200);
      expectGuarded(served, host);
    }
    await visibility(client, site, "private");
    const host = hostOf(site.url);
    const pass = await server.edge.get(host, "/.berth/password", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ password: "site password", next: "/" }).toString(),
    });
    expect(pass.status).toBe(403);
    expect(pass.headers["set-cookie"]).toBeUndefined();
    expect((await server.edge.get(host, "/")).status).toBe(403);
  });

  it("serves a public site as before, counts opens of its links there, and keeps /_share/ for links", async () => {
    const { client, site } = await owner();
    const link = await linkOf(client, site);
    for (const host of hostsOf(site)) {
      const asset = await server.edge.get(host, "/app.js");
      expect(asset.status).toBe(200);
      expect(asset.headers["cache-control"]).not.toBe("no-store");
      expect(asset.headers["referrer-policy"]).toBeUndefined();
      expect((await server.edge.get(host, pathOf(link))).status).toBe(303);
      // The upload's own _share/ folder is not served under any spelling.
      for (const path of ["/_share/inside.txt", "/%5Fshare/inside.txt", "/%5fshare/inside.txt"]) {
        const response = await server.edge.get(host, path);
        expect(response.status, path).toBe(404);
        expect(response.text, path).not.toContain("reserved");
      }
    }
    expect(await viewsOf(link.id)).toBe(3);
    // Back to public from private: files are served to anyone again.
    await visibility(client, site, "private");
    expect((await server.edge.get(hostOf(site.url), "/app.js")).status).toBe(403);
    await visibility(client, site, "public");
    expect((await server.edge.get(hostOf(site.url), "/app.js")).text).toBe(ASSET);
  });

  it("spends no view on HEAD, logs a long user agent cut to 300 characters, and puts the site's schedule first", async () => {
    const { client, site } = await privateSite();
    const link = await linkOf(client, site);
    const head = await server.edge.get(hostOf(site.url), pathOf(link), { method: "HEAD" });
    expect(head.status).toBe(303);
    expect(head.headers["set-cookie"]).toBeUndefined();
    expect(await viewsOf(link.id)).toBe(0);

    await server.edge.get(hostOf(site.url), pathOf(link), { headers: { "user-agent": "A".repeat(400) } });
    const [open] = await server.ctx.db.select().from(shareLinkOpens).where(eq(shareLinkOpens.link_id, link.id));
    expect(open!.user_agent).toBe("A".repeat(300));

    // An expired site answers 410 "This site has expired" to links too, and counts nothing.
    await server.ctx.db.execute(sql`update sites set expires_at = now() - interval '1 minute' where id = ${site.id}`);
    server.ctx.events.emit("site", { userId: "", siteId: site.id, subdomain: site.subdomain });
    const expired = await server.edge.get(hostOf(site.url), pathOf(link));
    expect(expired.status).toBe(410);
    expect(expired.text).toContain("This site has expired");
    expect(await viewsOf(link.id)).toBe(1);
  });
});
