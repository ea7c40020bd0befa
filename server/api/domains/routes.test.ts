// The custom-domain routes as a guest (401), a Free owner (403 where Pro is needed), a Pro owner
// and another user (404, nothing changes). Provisioning itself: services/provisionDomains.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { DOMAIN_TEXT, type DomainResponse } from "../../../common/domains";
import { rowsOf } from "../../db/rows";
import { domains, sites } from "../../db/schema";
import { ownerWithSite as ownerWithSiteOf, setPlan, signedInClient } from "../../test/factories";
import { addDomainTo } from "../../test/domains";
import { createSiteWith, htmlFile } from "../../test/sites";
import { DRIVERS, getTestServer, type TestClient, type TestServer } from "../../test/support";

describe.each(DRIVERS)("custom-domain routes (%s)", (driver) => {
  let server: TestServer;
  let names = 0;
  const hostname = () => `www.route${++names}-${driver}.test`;
  beforeAll(async () => {
    server = await getTestServer(driver);
  });
  afterAll(() => server.close());

  const ownerWithSite = (plan: "free" | "pro") => ownerWithSiteOf(server, plan, [{ name: "index.html", data: "<h1>Hi</h1>" }]);
  const snapshot = async () =>
    JSON.stringify(rowsOf(await server.ctx.db.execute(sql`select * from domains order by id`))) +
    JSON.stringify(rowsOf(await server.ctx.db.execute(sql`select id, domain, updated_at from sites order by id`)));
  const add = (client: TestClient, siteId: string, domain: unknown) => client.post(`/api/sites/${siteId}/domains`, { domain });

  describe("as a guest", () => {
    it.each([
      ["GET /api/domains", (c: TestClient) => c.get("/api/domains")],
      ["GET /api/sites/:id/domains", (c: TestClient, siteId: string) => c.get(`/api/sites/${siteId}/domains`)],
      ["POST /api/sites/:id/domains", (c: TestClient, siteId: string) => add(c, siteId, "www.guest.test")],
      ["POST /api/domains/:id/check", (c: TestClient, _s: string, domainId: string) => c.post(`/api/domains/${domainId}/check`)],
      ["DELETE /api/domains/:id", (c: TestClient, _s: string, domainId: string) => c.delete(`/api/domains/${domainId}`)],
    ])("%s answers 401", async (_name, call) => {
      const { client, site } = await ownerWithSite("pro");
      const domain = await addDomainTo(client, site.id, hostname());
      const before = await snapshot();
      const response = await call(server.client(), site.id, domain.id);
      expect(response.statusCode).toBe(401);
      expect(await snapshot()).toBe(before);
    });
  });

  describe("as a Pro owner", () => {
    it("adds a domain: 201 with the records to create, pending, due at once", async () => {
      const { client, site, user } = await ownerWithSite("pro");
      const response = await add(client, site.id, "  HTTPS://WWW.Example-Shop.test/path?q=1 ");
      expect(response.statusCode).toBe(201);
      const domain = response.json<DomainResponse>();
      expect(domain).toMatchObject({
        site_id: site.id,
        site_name: site.name,
        hostname: "www.example-shop.test",
        status: "pending",
        error: null,
        attempts: 0,
        url: "http://www.example-shop.test:8080/",
        verified_at: null,
        activated_at: null,
      });
      const [row] = await server.ctx.db.select().from(domains).where(eq(domains.id, domain.id));
      expect(row).toMatchObject({ user_id: user.id, status: "pending" });
      expect(row!.next_attempt_at!.getTime()).toBeLessThanOrEqual(Date.now());
      expect(domain.records).toEqual([
        { type: "CNAME", name: "www.example-shop.test", value: `${site.subdomain}.localhost` },
        { type: "TXT", name: "_berth.www.example-shop.test", value: row!.verification_token },
      ]);
    });

    it("gives every domain its own random token", async () => {
      const { client, site } = await ownerWithSite("pro");
      const a = await addDomainTo(client, site.id, hostname());
      const b = await addDomainTo(client, site.id, hostname());
      expect(a.records[1]!.value).not.toBe(b.records[1]!.value);
    });

    it("lists the user's domains newest first, and a site's own", async () => {
      const { client, site } = await ownerWithSite("pro");
      const other = await ownerWithSiteOf(server, "pro", [{ name: "index.html", data: "x" }]);
      const first = await addDomainTo(client, site.id, hostname());
      const second = await addDomainTo(client, site.id, hostname());
      // Someone else's domain never shows.
      await addDomainTo(other.client, other.site.id, hostname());
      const all = (await client.get("/api/domains")).json().domains as DomainResponse[];
      expect(all.map((d) => d.id)).toEqual([second.id, first.id]);
      const ofSite = await client.get(`/api/sites/${site.id}/domains`);
      expect(ofSite.statusCode).toBe(200);
      expect((ofSite.json().domains as DomainResponse[]).map((d) => d.hostname)).toEqual([second.hostname, first.hostname]);
    });

    it.each([
      ["a single label", "localhost"],
      ["an IP address", "192.168.1.1"],
      ["a label with a leading hyphen", "-bad.example.test"],
      ["spaces inside", "my shop.test"],
      ["an empty name", ""],
      ["a non-string", 42],
      ["unicode (must be punycode)", "bücher.test"],
      ["a name too long", `${"a".repeat(63)}.${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(63)}.test`],
    ])("refuses %s with 400", async (_name, value) => {
      const { client, site } = await ownerWithSite("pro");
      const response = await add(client, site.id, value);
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toMatchObject({ code: "invalid_request", message: DOMAIN_TEXT.invalid });
    });

    it.each([
      ["a site host", (sub: string) => `${sub}.localhost`],
      ["a deployment host", (sub: string) => `${sub}--v1.localhost`],
      ["a name under the sites domain", () => "a.b.localhost"],
    ])("refuses %s: Berth serves it already", async (_name, name) => {
      const { client, site } = await ownerWithSite("pro");
      const response = await add(client, site.id, name(site.subdomain));
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toEqual({ code: "domain_reserved", message: DOMAIN_TEXT.sitesDomain });
    });

    it("refuses a name already attached to one of the user's sites", async () => {
      const { client, site } = await ownerWithSite("pro");
      const second = await createSiteWith(client, htmlFile("<p>2</p>"));
      const name = hostname();
      await addDomainTo(client, site.id, name);
      for (const siteId of [site.id, second.id]) {
        const response = await add(client, siteId, name.toUpperCase());
        expect(response.statusCode).toBe(409);
        expect(response.json().error).toEqual({ code: "domain_attached", message: DOMAIN_TEXT.attached });
      }
    });

    it("refuses a name another account has verified, but not one it only claimed", async () => {
      const { client, site } = await ownerWithSite("pro");
      const other = await ownerWithSiteOf(server, "pro", [{ name: "index.html", data: "x" }]);
      const claimed = hostname();
      await addDomainTo(other.client, other.site.id, claimed);
      expect((await add(client, site.id, claimed)).statusCode).toBe(201);

      const verified = hostname();
      const theirs = await addDomainTo(other.client, other.site.id, verified);
      await server.ctx.db.update(domains).set({ verified_at: new Date() }).where(eq(domains.id, theirs.id));
      const refused = await add(client, site.id, verified);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error).toEqual({ code: "domain_taken", message: DOMAIN_TEXT.taken });
    });

    it("refuses a domain for a site marked for deletion", async () => {
      const { client, site } = await ownerWithSite("pro");
      await client.delete(`/api/sites/${site.id}`);
      const response = await add(client, site.id, hostname());
      expect(response.statusCode).toBe(409);
      expect(response.json().error.code).toBe("site_deleted");
    });

    it("checks again: provisioning starts over; an active domain is left as it is", async () => {
      const { client, site } = await ownerWithSite("pro");
      const domain = await addDomainTo(client, site.id, hostname());
      await server.ctx.db
        .update(domains)
        .set({ status: "failed", attempts: 10, error: "Domain validation timed out", next_attempt_at: null })
        .where(eq(domains.id, domain.id));
      const response = await client.post(`/api/domains/${domain.id}/check`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ id: domain.id, status: "pending", attempts: 0, error: null });
      const [row] = await server.ctx.db.select().from(domains).where(eq(domains.id, domain.id));
      expect(row!.next_attempt_at).not.toBeNull();

      await server.ctx.db
        .update(domains)
        .set({ status: "active", verified_at: new Date(), activated_at: new Date(), next_attempt_at: null })
        .where(eq(domains.id, domain.id));
      expect((await client.post(`/api/domains/${domain.id}/check`)).json()).toMatchObject({ status: "active" });
    });

    it("removes a domain: 204, gone from the lists, and the site's address falls back", async () => {
      const { client, site } = await ownerWithSite("pro");
      const first = await addDomainTo(client, site.id, hostname());
      const second = await addDomainTo(client, site.id, hostname());
      for (const [domain, minutes] of [
        [first, 1],
        [second, 2],
      ] as const) {
        const when = new Date(Date.now() - 60_000 * (3 - minutes));
        await server.ctx.db
          .update(domains)
          .set({ status: "active", verified_at: when, activated_at: when, next_attempt_at: null })
          .where(eq(domains.id, domain.id));
      }
      await server.ctx.db.update(sites).set({ domain: first.hostname }).where(eq(sites.id, site.id));
      const removed = await client.delete(`/api/domains/${first.id}`);
      expect(removed.statusCode).toBe(204);
      expect(removed.body).toBe("");
      expect((await client.get("/api/domains")).json().domains.map((d: DomainResponse) => d.id)).toEqual([second.id]);
      expect((await client.get(`/api/sites/${site.id}`)).json().domain).toBe(second.hostname);
      await client.delete(`/api/domains/${second.id}`);
      expect((await client.get(`/api/sites/${site.id}`)).json().domain).toBeNull();
      expect((await client.delete(`/api/domains/${second.id}`)).statusCode).toBe(404);
    });

    it("answers 404 for ids that are not ids", async () => {
      const { client } = await ownerWithSite("pro");
      for (const id of ["not-a-uuid", "1' or '1'='1", "00000000-0000-0000-0000-000000000000"]) {
        expect((await client.post(`/api/domains/${encodeURIComponent(id)}/check`)).statusCode).toBe(404);
        expect((await client.delete(`/api/domains/${encodeURIComponent(id)}`)).statusCode).toBe(404);
      }
      expect((await client.get("/api/sites/not-a-uuid/domains")).statusCode).toBe(404);
    });
  });

  describe("as a Free owner", () => {
    it("cannot add a domain: 403 pro_required, nothing stored", async () => {
      const { client, site } = await ownerWithSite("free");
      const before = await snapshot();
      const response = await add(client, site.id, hostname());
      expect(response.statusCode).toBe(403);
      expect(response.json().error).toEqual({ code: "pro_required", message: "Custom domains are a Pro feature. Upgrade to Pro to add a domain." });
      expect(await snapshot()).toBe(before);
    });

    it("can list and remove the domains kept from a Pro plan, but not check them again", async () => {
      const { client, site, user } = await ownerWithSite("pro");
      const domain = await addDomainTo(client, site.id, hostname());
      await setPlan(server, user.id, "free");
      expect((await client.get("/api/domains")).json().domains).toHaveLength(1);
      expect((await client.get(`/api/sites/${site.id}/domains`)).json().domains).toHaveLength(1);
      const check = await client.post(`/api/domains/${domain.id}/check`);
      expect(check.statusCode).toBe(403);
      expect(check.json().error.code).toBe("pro_required");
      expect((await client.delete(`/api/domains/${domain.id}`)).statusCode).toBe(204);
      expect((await client.get("/api/domains")).json().domains).toEqual([]);
    });

    it("lists nothing when there is nothing", async () => {
      const { client, site } = await ownerWithSite("free");
      expect((await client.get("/api/domains")).json()).toEqual({ domains: [] });
      expect((await client.get(`/api/sites/${site.id}/domains`)).json()).toEqual({ domains: [] });
    });
  });

  describe("as another user", () => {
    it.each(["free", "pro"] as const)("a %s user gets 404 from every route and changes nothing", async (plan) => {
      const { client, site } = await ownerWithSite("pro");
      const domain = await addDomainTo(client, site.id, hostname());
      const intruder = await signedInClient(server);
      await setPlan(server, intruder.user.id, plan);
      const before = await snapshot();
      const calls = [
        [() => intruder.client.get(`/api/sites/${site.id}/domains`), "site_not_found"],
        [() => add(intruder.client, site.id, hostname()), "site_not_found"],
        [() => intruder.client.post(`/api/domains/${domain.id}/check`), "domain_not_found"],
        [() => intruder.client.delete(`/api/domains/${domain.id}`), "domain_not_found"],
      ] as const;
      for (const [call, code] of calls) {
        const response = await call();
        expect(response.statusCode).toBe(404);
        expect(response.json().error.code).toBe(code);
      }
      expect((await intruder.client.get("/api/domains")).json()).toEqual({ domains: [] });
      expect(await snapshot()).toBe(before);
    });
  });
});
