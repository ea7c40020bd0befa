// One account cannot hold unbounded numbers of things that cost the server rows, cache entries
// or background work: sites and custom domains per account, share links per site. Going over
// answers 409 with a message naming the cap and changes nothing; parallel adds at the cap let
// exactly as many through as there is room for (a site needs the account's one reserved subdomain,
// so its creates cannot race). Small caps are set here through the settings.
import { readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { CAP_TEXT } from "../../common/limits";
import { domains, shareLinks, sites } from "../db/schema";
import { ownerWithSite } from "../test/factories";
import { createSiteWith, htmlFile, postMultipart } from "../test/sites";
import { DRIVERS, getTestServer, type TestClient, type TestServer } from "../test/support";

const CAPS = { sites: 3, domains: 3, shareLinks: 2 };

describe.each(DRIVERS)("caps per account (%s)", (driver) => {
  let server: TestServer;
  let names = 0;
  const hostname = () => `www.cap${++names}-${driver}.test`;

  beforeAll(async () => {
    server = await getTestServer(driver, {
      env: {
        BERTH_MAX_SITES_PER_ACCOUNT: String(CAPS.sites),
        BERTH_MAX_DOMAINS_PER_ACCOUNT: String(CAPS.domains),
        BERTH_MAX_SHARE_LINKS_PER_SITE: String(CAPS.shareLinks),
      },
    });
  });
  afterAll(() => server.close());

  const proOwner = () => ownerWithSite(server, "pro", [{ name: "index.html", data: "<h1>Hi</h1>" }]);
  const addDomain = (client: TestClient, siteId: string, domain = hostname()) => client.post(`/api/sites/${siteId}/domains`, { domain });
  const addLink = (client: TestClient, siteId: string, name = "Client") => client.post(`/api/sites/${siteId}/share-links`, { name });
  const domainCount = async (userId: string) => (await server.ctx.db.select().from(domains).where(eq(domains.user_id, userId))).length;
  const linkCount = async (siteId: string) => (await server.ctx.db.select().from(shareLinks).where(eq(shareLinks.site_id, siteId))).length;
  const siteCount = async (userId: string) => (await server.ctx.db.select().from(sites).where(eq(sites.user_id, userId))).length;

  describe("custom domains, per account", () => {
    it("refuses the one over the cap with a message naming it, across the account's sites", async () => {
      const { client, site, user } = await proOwner();
      const second = await createSiteWith(client, htmlFile());
      expect((await addDomain(client, site.id)).statusCode).toBe(201);
      expect((await addDomain(client, second.id)).statusCode).toBe(201);
      expect((await addDomain(client, site.id)).statusCode).toBe(201);

      const refused = await addDomain(client, second.id);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toEqual({
        error: { code: "domain_limit_reached", message: `You can have at most ${CAPS.domains} custom domains. Remove one to add another.` },
      });
      expect(refused.json().error.message).toBe(CAP_TEXT.customDomains(CAPS.domains));
      expect(await domainCount(user.id)).toBe(CAPS.domains);

      // Removing one makes room for one.
      const [first] = (await client.get("/api/domains")).json().domains as { id: string }[];
      expect((await client.delete(`/api/domains/${first!.id}`)).statusCode).toBe(204);
      expect((await addDomain(client, second.id)).statusCode).toBe(201);
      expect((await addDomain(client, second.id)).statusCode).toBe(409);
    });

    it("counts each account on its own", async () => {
      const full = await proOwner();
      for (let i = 0; i < CAPS.domains; i++) expect((await addDomain(full.client, full.site.id)).statusCode).toBe(201);
      const other = await proOwner();
      expect((await addDomain(other.client, other.site.id)).statusCode).toBe(201);
    });

    it("lets exactly the room left through when adds race at the cap", async () => {
      const { client, site, user } = await proOwner();
      const answers = await Promise.all(Array.from({ length: 12 }, () => addDomain(client, site.id)));
      expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(CAPS.domains);
      expect(answers.filter((a) => a.statusCode === 409)).toHaveLength(12 - CAPS.domains);
      expect(await domainCount(user.id)).toBe(CAPS.domains);
    });
  });

  describe("share links, per site", () => {
    it("refuses the one over the cap with a message naming it; revoked links still count", async () => {
      const { client, site } = await proOwner();
      expect((await addLink(client, site.id, "A")).statusCode).toBe(201);
      const b = await addLink(client, site.id, "B");
      expect(b.statusCode).toBe(201);
      expect((await client.patch(`/api/sites/${site.id}/share-links/${b.json().id}`, { revoked: true })).statusCode).toBe(200);

      const refused = await addLink(client, site.id, "C");
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toEqual({
        error: { code: "share_link_limit_reached", message: `A site can have at most ${CAPS.shareLinks} share links. Delete one to add another.` },
      });
      expect(await linkCount(site.id)).toBe(CAPS.shareLinks);

      // Deleting one makes room; another site of the same account has its own room.
      expect((await client.delete(`/api/sites/${site.id}/share-links/${b.json().id}`)).statusCode).toBe(204);
      expect((await addLink(client, site.id, "C")).statusCode).toBe(201);
      const second = await createSiteWith(client, htmlFile());
      expect((await addLink(client, second.id, "Other site")).statusCode).toBe(201);
    });

    it("lets exactly the room left through when adds race at the cap", async () => {
      const { client, site } = await proOwner();
      const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => addLink(client, site.id, `Link ${i}`)));
      expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(CAPS.shareLinks);
      expect(answers.filter((a) => a.statusCode === 409)).toHaveLength(12 - CAPS.shareLinks);
      expect(await linkCount(site.id)).toBe(CAPS.shareLinks);
    });
  });

  describe("sites, per account", () => {
    const blobFiles = () => readdirSync(path.join(server.ctx.env.dataDir, "blobs"), { recursive: true }).length;

    it("refuses the one over the cap and keeps nothing of its upload; a deleted site counts until purged", async () => {
      const { client, site, user } = await ownerWithSite(server, "free", [{ name: "index.html", data: "<h1>One</h1>" }]);
      await createSiteWith(client, htmlFile("<h1>Two</h1>"));
      expect((await client.delete(`/api/sites/${site.id}`)).statusCode).toBe(200);
      await createSiteWith(client, htmlFile("<h1>Three</h1>"));

      const blobsBefore = blobFiles();
      const reserved = (await client.post("/api/subdomains/reserve", {})).json().subdomain as string;
      const refused = await postMultipart(client, "/api/sites", { name: "Four", subdomain: reserved }, htmlFile("<h1>Four, never stored</h1>"));
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toEqual({
        error: {
          code: "site_limit_reached",
          message: `You can have at most ${CAPS.sites} sites. Delete one to add another; a deleted site counts until it is purged.`,
        },
      });
      expect(await siteCount(user.id)).toBe(CAPS.sites);
      expect(blobFiles()).toBe(blobsBefore);
      // The restored site was counted all along: restoring needs no room.
      expect((await client.post(`/api/sites/${site.id}/restore`)).statusCode).toBe(200);
    });
  });
});
