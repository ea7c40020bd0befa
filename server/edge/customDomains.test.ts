// Serving a site on its custom domain: only once the domain is active, exactly as on the
// subdomain (password, schedule), and no longer at once when the domain or the site goes. And
// /internal/tls/ask, which Caddy asks before it gets a certificate for a name.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DOMAIN_DNS_WAIT_MS } from "../../common/domains";
import { updateSiteSchedule } from "../db/repositories/sites";
import { updateUser } from "../services/admin/updateUser";
import { TestDnsServer } from "../test/dnsServer";
import { activeDomain, addDomainTo, provisionAt, publishRecords } from "../test/domains";
import { ownerWithSite } from "../test/factories";
import { RawConnection } from "../test/rawHttp";
import { hostOf } from "../test/sites";
import { DRIVERS, getTestServer, type TestServer } from "../test/support";

/** The test edge hands hosts that are not a site's to this stand-in for Fastify. */
const NOT_THE_EDGE = 421;
const FILES = [
  { name: "index.html", data: "<h1>Shop</h1>" },
  { name: "app.js", data: "console.log('0123456789')" },
];

describe.each(DRIVERS)("custom domains at the edge (%s)", (driver) => {
  let dns: TestDnsServer;
  let server: TestServer;
  let names = 0;
  const hostname = () => `www.edge${++names}-${driver}.test`;

  beforeAll(async () => {
    dns = await TestDnsServer.start();
    server = await getTestServer(driver, { env: { BERTH_DNS_SERVERS: dns.address } });
  });
  afterAll(async () => {
    await server.close();
    await dns.close();
  });
  afterEach(() => server.ctx.domains.settled());

  const proSite = () => ownerWithSite(server, "pro", FILES);
  const ask = (domain: string) => server.app.inject({ method: "GET", url: `/internal/tls/ask?domain=${encodeURIComponent(domain)}` });

  async function expectServed(host: string) {
    const page = await server.edge.get(host, "/");
    expect(page.status).toBe(200);
    expect(page.text).toBe("<h1>Shop</h1>");
    expect((await server.edge.get(host, "/app.js", { method: "HEAD" })).status).toBe(200);
    // A Range request goes through node:http rather than the edge's own HTTP/1.1 layer.
    const range = await server.edge.get(host, "/app.js", { headers: { range: "bytes=0-6" } });
    expect(range.status).toBe(206);
    expect(range.text).toBe("console");
  }

  async function expectNotServed(host: string) {
    for (const options of [{}, { headers: { range: "bytes=0-6" } }]) {
      const response = await server.edge.get(host, "/app.js", options);
      expect(response.text).not.toContain("console.log");
      expect([404, NOT_THE_EDGE]).toContain(response.status);
    }
  }

  it("serves the site on the domain once it is active, and not before", async () => {
    const { client, site } = await proSite();
    const name = hostname();
    const domain = await addDomainTo(client, site.id, name);
    await expectNotServed(name);
    publishRecords(dns, domain);
    const start = new Date();
    await provisionAt(server, start);
    // Verified, but the certificate step has not run: not yet.
    await expectNotServed(name);
    expect((await ask(name)).statusCode).toBe(404);
    await provisionAt(server, new Date(start.getTime() + DOMAIN_DNS_WAIT_MS));
    await expectServed(name);
    // However the Host header spells it.
    await expectServed(`${name.toUpperCase()}:8080`);
    await expectServed(`${name}.`);
    // The subdomain is served as before.
    await expectServed(hostOf(site.url));
  });

  it("asks for the site's password on the domain too, assets included", async () => {
    const { client, site } = await proSite();
    const name = hostname();
    await activeDomain(server, dns, client, site.id, name);
    expect((await client.request("PUT", `/api/sites/${site.id}/password`, { json: { password: "correct horse battery" } })).statusCode).toBe(200);
    for (const [path, options] of [
      ["/", {}],
      ["/app.js", {}],
      ["/app.js", { headers: { range: "bytes=0-3" } }],
      ["/", { method: "HEAD" }],
    ] as const) {
      const response = await server.edge.get(name, path, options);
      expect(response.status).toBe(401);
      expect(response.headers["cache-control"]).toBe("no-store");
      expect(response.headers["referrer-policy"]).toBe("no-referrer");
      expect(response.text).not.toContain("console.log");
    }
  });

  it("follows the site's schedule on the domain", async () => {
    const { client, site, user } = await proSite();
    const name = hostname();
    await activeDomain(server, dns, client, site.id, name);
    await updateSiteSchedule(server.ctx.db, user.id, site.id, { expires_at: new Date(Date.now() - 1000), publish_at: null });
    server.ctx.events.emit("site", { userId: user.id, siteId: site.id, subdomain: site.subdomain });
    expect((await server.edge.get(name, "/")).status).toBe(410);
    expect((await server.edge.get(name, "/app.js", { headers: { range: "bytes=0-3" } })).status).toBe(410);
  });

  it("stops serving a removed domain at once", async () => {
    const { client, site } = await proSite();
    const name = hostname();
    const domain = await activeDomain(server, dns, client, site.id, name);
    await expectServed(name);
    expect((await client.delete(`/api/domains/${domain.id}`)).statusCode).toBe(204);
    // No waiting for the registry's reload: the very next request is not the site's.
    await expectNotServed(name);
    expect((await ask(name)).statusCode).toBe(404);
    await expectServed(hostOf(site.url));
  });

  it("stops serving a removed domain at once on a connection kept open, which still serves site hosts", async () => {
    const { client, site } = await proSite();
    const name = hostname();
    const domain = await activeDomain(server, dns, client, site.id, name);
    const connection = await RawConnection.open(await server.edge.port());
    try {
      const request = (host: string) => `GET /app.js HTTP/1.1\r\nHost: ${host}\r\n\r\n`;
      connection.write(request(name) + request(name));
      for (let i = 0; i < 2; i++) expect((await connection.response()).status).toBe(200);
      expect((await client.delete(`/api/domains/${domain.id}`)).statusCode).toBe(204);
      connection.write(request(name));
      expect((await connection.response()).status).toBe(NOT_THE_EDGE);
    } finally {
      connection.close();
    }
    // The same, the other way round: a site host first, then a domain nobody has.
    const other = await RawConnection.open(await server.edge.port());
    try {
      other.write(`GET /app.js HTTP/1.1\r\nHost: ${hostOf(site.url)}\r\n\r\n`);
      expect((await other.response()).body.toString()).toBe("console.log('0123456789')");
      other.write(`GET /app.js HTTP/1.1\r\nHost: ${hostname()}\r\n\r\n`);
      expect((await other.response()).status).toBe(NOT_THE_EDGE);
    } finally {
      other.close();
    }
  });

  it("stops serving when the site is deleted, at once, and again after a restore", async () => {
    const { client, site } = await proSite();
    const name = hostname();
    await activeDomain(server, dns, client, site.id, name);
    expect((await client.delete(`/api/sites/${site.id}`)).statusCode).toBe(200);
    await expectNotServed(name);
    await server.ctx.domains.settled();
    await expectNotServed(name);
    expect((await ask(name)).statusCode).toBe(404);

    expect((await client.post(`/api/sites/${site.id}/restore`, {})).statusCode).toBe(200);
    await server.ctx.domains.settled();
    await expectServed(name);
    expect((await ask(name)).statusCode).toBe(200);
  });

  it("does not serve a banned owner's domains", async () => {
    const { client, site, user } = await proSite();
    const name = hostname();
    await activeDomain(server, dns, client, site.id, name);
    await updateUser(server.ctx, undefined, user.id, { banned: true });
    await expectNotServed(name);
    await server.ctx.domains.settled();
    expect((await ask(name)).statusCode).toBe(404);
    await updateUser(server.ctx, undefined, user.id, { banned: false });
    await server.ctx.domains.settled();
    await expectServed(name);
  });

  it("keeps the dashboard on its own hosts, whatever domains are active", async () => {
    const { client, site } = await proSite();
    await activeDomain(server, dns, client, site.id, hostname());
    for (const host of ["localhost:8080", "127.0.0.1:8080", "[::1]:8080", "unknown.example.test"]) {
      expect((await server.edge.get(host, "/")).status).toBe(NOT_THE_EDGE);
    }
  });

  describe("GET /internal/tls/ask", () => {
    it("answers 200 for an active domain and 404 for anything else, without a DNS lookup", async () => {
      const { client, site } = await proSite();
      const active = hostname();
      await activeDomain(server, dns, client, site.id, active);
      const pending = await addDomainTo(client, site.id, hostname());
      const asked = dns.asked.length;

      const yes = await ask(active);
      expect(yes.statusCode).toBe(200);
      expect(yes.headers["cache-control"]).toBe("no-store");
      expect((await ask(`${active.toUpperCase()}.`)).statusCode).toBe(200);
      for (const domain of [pending.hostname, "unknown.example.test", hostOf(site.url), "localhost", "", `x.${active}`]) {
        expect((await ask(domain)).statusCode, domain).toBe(404);
      }
      expect((await server.app.inject({ method: "GET", url: "/internal/tls/ask" })).statusCode).toBe(404);
      expect((await server.app.inject({ method: "GET", url: `/internal/tls/ask?domain=${active}&domain=${active}` })).statusCode).toBe(404);
      expect(dns.asked.length).toBe(asked);
    });

    it("is not reachable through a site host or a custom domain: the edge takes those", async () => {
      const { client, site } = await proSite();
      const active = hostname();
      await activeDomain(server, dns, client, site.id, active);
      for (const host of [hostOf(site.url), `${site.subdomain}--v1.localhost:8080`, active]) {
        const response = await server.edge.get(host, `/internal/tls/ask?domain=${active}`);
        expect(response.status, host).toBe(404);
        expect(response.text).not.toBe("ok\n");
      }
    });
  });

  it("serves the active domains again after a restart: the registry is loaded at start", async () => {
    const { client, site } = await proSite();
    const name = hostname();
    await activeDomain(server, dns, client, site.id, name);
    server = await server.restart();
    await expectServed(name);
    expect((await ask(name)).statusCode).toBe(200);
  });
});
