// Site expiry and go-live times: the API (Pro only to set, anyone to clear) and the edge, which
// answers 410 after the expiry and 404 before the go-live time on every host of the site.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { DRIVERS, getTestServer, type TestServer } from "../../test/support";
import { ownerWithSite as ownerWithSiteOf, setPlan, signedInClient } from "../../test/factories";
import { hostOf } from "../../test/sites";
import { sites } from "../../db/schema";
import { updateSiteSchedule } from "../../db/repositories/sites";
import { SCHEDULE_TEXT, type SiteResponse } from "../../../common/sites";

const HOUR = 60 * 60 * 1000;
const inHours = (hours: number) => new Date(Date.now() + hours * HOUR).toISOString();

describe.each(DRIVERS)("site schedule (%s)", (driver) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await getTestServer(driver);
  });
  afterAll(() => server.close());

  const ownerWithSite = (plan: "free" | "pro") =>
    ownerWithSiteOf(server, plan, [
      { name: "index.html", data: "<h1>Live</h1>" },
      { name: "app.js", data: "console.log('0123456789')" },
    ]);

  describe("PATCH /api/sites/:id/schedule", () => {
    it("needs a session", async () => {
      const { site } = await ownerWithSite("pro");
      const response = await server.client().patch(`/api/sites/${site.id}/schedule`, { expiresAt: inHours(1), publishAt: null });
      expect(response.statusCode).toBe(401);
    });

    it("answers 404 for another user's site, even a Pro user's, and changes nothing", async () => {
      const { site, user } = await ownerWithSite("pro");
      const other = await signedInClient(server);
      await setPlan(server, other.user.id, "pro");
      const response = await other.client.patch(`/api/sites/${site.id}/schedule`, { expiresAt: inHours(1), publishAt: null });
      expect(response.statusCode).toBe(404);
      expect(response.json().error.code).toBe("site_not_found");
      const [row] = await server.ctx.db.select().from(sites).where(eq(sites.user_id, user.id));
      expect(row!.expires_at).toBeNull();
    });

    it("refuses a Free owner who sets a time with 403 pro_required, and lets them clear", async () => {
      const { client, site, user } = await ownerWithSite("free");
      for (const body of [
        { expiresAt: inHours(1), publishAt: null },
        { expiresAt: null, publishAt: inHours(1) },
      ]) {
        const refused = await client.patch(`/api/sites/${site.id}/schedule`, body);
        expect(refused.statusCode).toBe(403);
        expect(refused.json().error).toMatchObject({
          code: "pro_required",
          message: "Site expiry and go-live times are a Pro feature. Upgrade to Pro to schedule this site.",
        });
        expect(refused.json().error.message).toContain("Pro");
      }
      // A user who was Pro and went back to Free can still take the times off.
      const expiresAt = new Date(Date.now() + HOUR);
      await updateSiteSchedule(server.ctx.db, user.id, site.id, { expires_at: expiresAt, publish_at: null });
      const cleared = await client.patch(`/api/sites/${site.id}/schedule`, { expiresAt: null, publishAt: null });
      expect(cleared.statusCode).toBe(200);
      expect(cleared.json()).toMatchObject({ id: site.id, expires_at: null, publish_at: null });
    });

    it("lets a Pro owner set and clear both times, shown in the site as ISO strings", async () => {
      const { client, site } = await ownerWithSite("pro");
      expect(site).toMatchObject({ expires_at: null, publish_at: null });
      const expiresAt = inHours(72);
      const publishAt = inHours(2);
      const set = await client.patch(`/api/sites/${site.id}/schedule`, { expiresAt, publishAt });
      expect(set.statusCode).toBe(200);
      expect(set.json()).toMatchObject({ id: site.id, expires_at: expiresAt, publish_at: publishAt });
      expect((await client.get(`/api/sites/${site.id}`)).json()).toMatchObject({ expires_at: expiresAt, publish_at: publishAt });
      const listed = (await client.get("/api/sites")).json().sites as SiteResponse[];
      expect(listed.find((s) => s.id === site.id)).toMatchObject({ expires_at: expiresAt, publish_at: publishAt });

      // An offset is accepted and stored as the same instant.
      const withOffset = await client.patch(`/api/sites/${site.id}/schedule`, { expiresAt: "2999-01-01T12:00:00+02:00", publishAt: null });
      expect(withOffset.json()).toMatchObject({ expires_at: "2999-01-01T10:00:00.000Z", publish_at: null });

      const cleared = await client.patch(`/api/sites/${site.id}/schedule`, { expiresAt: null, publishAt: null });
      expect(cleared.json()).toMatchObject({ expires_at: null, publish_at: null });
    });

    it.each([
      ["an expiry in the past", { expiresAt: inHours(-1), publishAt: null }, "expiresAt", SCHEDULE_TEXT.expiryInPast],
      ["a go-live time after the expiry", { expiresAt: inHours(2), publishAt: inHours(3) }, "publishAt", SCHEDULE_TEXT.publishAfterExpiry],
      [
        "a go-live time equal to the expiry",
        { expiresAt: "2999-01-01T00:00:00Z", publishAt: "2999-01-01T00:00:00Z" },
        "publishAt",
        SCHEDULE_TEXT.publishAfterExpiry,
      ],
      ["a date that is not ISO", { expiresAt: "next tuesday", publishAt: null }, "expiresAt", SCHEDULE_TEXT.invalidTime],
      ["a missing field", { expiresAt: inHours(1) }, "publishAt", undefined],
    ])("refuses %s with 400 and the field's message", async (_name, body, field, message) => {
      const { client, site } = await ownerWithSite("pro");
      const response = await client.patch(`/api/sites/${site.id}/schedule`, body);
      expect(response.statusCode).toBe(400);
      const error = response.json().error;
      expect(error.code).toBe("invalid_request");
      expect(Object.keys(error.fields ?? {})).toContain(field);
      if (message) expect(error.message).toBe(message);
      expect((await client.get(`/api/sites/${site.id}`)).json()).toMatchObject({ expires_at: null, publish_at: null });
    });
  });

  describe("the edge", () => {
    /** Sets the times in the database, as if they had passed, and tells the edge as a service would. */
    async function scheduleDirectly(userId: string, site: SiteResponse, values: { expires_at: Date | null; publish_at: Date | null }) {
      await updateSiteSchedule(server.ctx.db, userId, site.id, values);
      server.ctx.events.emit("site", { userId, siteId: site.id, subdomain: site.subdomain });
    }

    const requests: [name: string, path: string, options: { method?: string; headers?: Record<string, string> }][] = [
      ["GET /", "/", {}],
      ["GET an asset", "/app.js", {}],
      ["HEAD /", "/", { method: "HEAD" }],
      ["a Range request", "/app.js", { headers: { range: "bytes=0-3" } }],
    ];

    const hostsOf = (site: SiteResponse) => [hostOf(site.url), `${site.subdomain}--v1.localhost:8080`];

    async function expectServed(site: SiteResponse) {
      for (const host of hostsOf(site)) {
        expect((await server.edge.get(host, "/")).text).toBe("<h1>Live</h1>");
        expect((await server.edge.get(host, "/app.js")).status).toBe(200);
        const range = await server.edge.get(host, "/app.js", { headers: { range: "bytes=0-3" } });
        expect(range.status).toBe(206);
        expect(range.text).toBe("cons");
      }
    }

    it("answers 410 with the expired page on every host, path, HEAD and Range after the expiry, until it is cleared", async () => {
      const { client, site, user } = await ownerWithSite("pro");
      await expectServed(site); // warm: the hosts are cached before the expiry

      await scheduleDirectly(user.id, site, { expires_at: new Date(Date.now() - 1000), publish_at: null });
      for (const host of hostsOf(site)) {
        for (const [name, path, options] of requests) {
          const response = await server.edge.get(host, path, options);
          expect(response.status, `${host} ${name}`).toBe(410);
          expect(response.headers["cache-control"], `${host} ${name}`).toBe("no-store");
          expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
          if (options.method === "HEAD") expect(response.body.length).toBe(0);
          else expect(response.text, `${host} ${name}`).toContain("This site has expired");
        }
      }

      const cleared = await client.patch(`/api/sites/${site.id}/schedule`, { expiresAt: null, publishAt: null });
      expect(cleared.statusCode).toBe(200);
      await expectServed(site);
    });

    it("turns a cached host to 410 when its expiry passes, with no event", async () => {
      const { client, site } = await ownerWithSite("pro");
      const expiresAt = new Date(Date.now() + 1500).toISOString();
      expect((await client.patch(`/api/sites/${site.id}/schedule`, { expiresAt, publishAt: null })).statusCode).toBe(200);
      await expectServed(site);
      await new Promise((resolve) => setTimeout(resolve, Date.parse(expiresAt) - Date.now() + 50));
      for (const host of hostsOf(site)) {
        expect((await server.edge.get(host, "/")).status).toBe(410);
        expect((await server.edge.get(host, "/app.js", { headers: { range: "bytes=0-3" } })).status).toBe(410);
      }
    });

    it("answers the site-not-found 404 on every host before the go-live time, and serves once it is cleared", async () => {
      const { client, site } = await ownerWithSite("pro");
      await expectServed(site);

      const set = await client.patch(`/api/sites/${site.id}/schedule`, { expiresAt: null, publishAt: inHours(24) });
      expect(set.statusCode).toBe(200);
      for (const host of hostsOf(site)) {
        for (const [name, path, options] of requests) {
          const response = await server.edge.get(host, path, options);
          expect(response.status, `${host} ${name}`).toBe(404);
          expect(response.headers["cache-control"], `${host} ${name}`).toBe("no-store");
          if (options.method !== "HEAD") expect(response.text, `${host} ${name}`).toContain("Site not found");
        }
      }

      expect((await client.patch(`/api/sites/${site.id}/schedule`, { expiresAt: null, publishAt: null })).statusCode).toBe(200);
      await expectServed(site);
    });

    it("serves a site whose go-live time has passed and whose expiry is ahead", async () => {
      const { site, user } = await ownerWithSite("pro");
      await scheduleDirectly(user.id, site, { expires_at: new Date(Date.now() + HOUR), publish_at: new Date(Date.now() - HOUR) });
      await expectServed(site);
    });
  });
});
