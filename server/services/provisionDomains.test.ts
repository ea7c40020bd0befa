// The custom-domain provisioning job against a real DNS server on loopback UDP: the sequence
// (DNS check, the 30 s wait, certificate, active) with its tries, waits and exact error texts,
// driven by passing `now` instead of waiting.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { DOMAIN_DNS_WAIT_MS, DOMAIN_ERRORS, DOMAIN_MAX_TRIES, DOMAIN_TEXT, DOMAIN_TRY_INTERVAL_MS, type DomainResponse } from "../../common/domains";
import { domains, sites } from "../db/schema";
import { claimDueDomains, recordDomainStep, restartDomainForUser } from "../db/repositories/domains";
import type { DomainChanged } from "../events";
import { TestDnsServer } from "../test/dnsServer";
import { addDomainTo, provisionAt, publishRecords } from "../test/domains";
import { ownerWithSite } from "../test/factories";
import { noticesOf } from "../test/notifications";
import { DRIVERS, getTestServer, type TestServer } from "../test/support";
import { createDnsLookup } from "../dns";
import { provisionDueDomains } from "./provisionDomains";
import { startWorker } from "../jobs/worker";

const at = (start: Date, ms: number) => new Date(start.getTime() + ms);

describe.each(DRIVERS)("custom-domain provisioning (%s)", (driver) => {
  let dns: TestDnsServer;
  let server: TestServer;
  let names = 0;
  /** A fresh hostname per test, so tests never see each other's records. */
  const hostname = (label = "www") => `${label}.shop${++names}-${driver}.test`;

  beforeAll(async () => {
    dns = await TestDnsServer.start();
    server = await getTestServer(driver, { env: { BERTH_DNS_SERVERS: dns.address } });
  });
  afterAll(async () => {
    await server.close();
    await dns.close();
  });
  // Each test sees only its own domains due.
  afterEach(async () => {
    await server.ctx.domains.settled();
    await server.ctx.db.delete(domains);
    await server.ctx.domains.load();
  });

  const proSite = () => ownerWithSite(server, "pro", [{ name: "index.html", data: "<h1>Shop</h1>" }]);
  const rowOf = async (id: string) => (await server.ctx.db.select().from(domains).where(eq(domains.id, id)))[0]!;
  const listen = () => {
    const seen: DomainChanged[] = [];
    const on = (e: DomainChanged) => seen.push(e);
    server.ctx.events.on("domain", on);
    return { seen, stop: () => server.ctx.events.off("domain", on) };
  };

  it("verifies the DNS, waits 30 s, issues the certificate step and goes active, mailing the owner once", async () => {
    const { client, site, user } = await proSite();
    const name = hostname();
    const added = await addDomainTo(client, site.id, name);
    expect(added.records).toEqual([
      { type: "CNAME", name, value: `${site.subdomain}.localhost` },
      { type: "TXT", name: `_berth.${name}`, value: expect.stringMatching(/^berth-[0-9a-f]{32}$/) },
    ]);
    publishRecords(dns, added);
    const events = listen();
    const start = new Date();

    expect(await provisionAt(server, start)).toBe(1);
    const verified = await rowOf(added.id);
    expect(verified).toMatchObject({ status: "certificate", attempts: 0, error: null, activated_at: null });
    expect(verified.verified_at).toEqual(start);
    expect(verified.next_attempt_at).toEqual(at(start, DOMAIN_DNS_WAIT_MS));
    expect(dns.asked).toContain(`TXT _berth.${name}`);

    // The 30 s wait: nothing is due a moment before it ends.
    expect(await provisionAt(server, at(start, DOMAIN_DNS_WAIT_MS - 1))).toBe(0);
    expect(await provisionAt(server, at(start, DOMAIN_DNS_WAIT_MS))).toBe(1);
    const active = await rowOf(added.id);
    expect(active).toMatchObject({ status: "active", attempts: 0, error: null, next_attempt_at: null });
    expect(active.activated_at).toEqual(at(start, DOMAIN_DNS_WAIT_MS));
    events.stop();
    expect(events.seen.map((e) => e.status)).toEqual(["certificate", "active"]);
    expect(events.seen[0]).toMatchObject({ userId: user.id, siteId: site.id, domainId: added.id, hostname: name });

    // The site's address becomes the domain, the API shows it active, the owner gets one mail.
    const [siteRow] = await server.ctx.db.select().from(sites).where(eq(sites.id, site.id));
    expect(siteRow!.domain).toBe(name);
    const listed = (await client.get(`/api/sites/${site.id}/domains`)).json().domains as DomainResponse[];
    expect(listed[0]).toMatchObject({ status: "active", error: null, url: `http://${name}:8080/` });
    expect(server.ctx.domains.target(name)).toEqual({ siteId: site.id, subdomain: site.subdomain });
    const mails = server.outbox.messages().filter((m) => m.subject === `${name} is now active`);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toBe(user.email);
    expect(mails[0]!.text).toContain(`/dashboard/sites/${site.id}`);

    // And one notice in the owner's feed.
    const notices = await noticesOf(client, "domain_active");
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ title: `${name} is now active`, link: `/dashboard/sites/${site.id}?tab=settings`, site_id: site.id });

    // Nothing more to do for an active domain, and no second mail.
    expect(await provisionAt(server, at(start, 10 * DOMAIN_DNS_WAIT_MS))).toBe(0);
    expect(server.outbox.messages().filter((m) => m.subject === `${name} is now active`)).toHaveLength(1);
    expect(await noticesOf(client, "domain_active")).toHaveLength(1);
  });

  it("tries up to 10 times, 5 s apart, and succeeds once the records appear", async () => {
    const { client, site } = await proSite();
    const added = await addDomainTo(client, site.id, hostname());
    const start = new Date();
    for (let attempt = 1; attempt <= 3; attempt++) {
      const now = at(start, (attempt - 1) * DOMAIN_TRY_INTERVAL_MS);
      expect(await provisionAt(server, now)).toBe(1);
      expect(await rowOf(added.id)).toMatchObject({ status: "dns_check", attempts: attempt, next_attempt_at: at(now, DOMAIN_TRY_INTERVAL_MS) });
      // Not again before the 5 s are up.
      expect(await provisionAt(server, at(now, DOMAIN_TRY_INTERVAL_MS - 1))).toBe(0);
    }
    expect((await client.get(`/api/domains`)).json().domains.find((d: DomainResponse) => d.id === added.id)).toMatchObject({
      status: "dns_check",
      attempts: 3,
    });
    publishRecords(dns, added);
    expect(await provisionAt(server, at(start, 3 * DOMAIN_TRY_INTERVAL_MS))).toBe(1);
    expect(await rowOf(added.id)).toMatchObject({ status: "certificate", attempts: 0 });
  });

  it("fails with 'Domain validation timed out' after 10 tries without a match, and Check again starts over", async () => {
    const { client, site } = await proSite();
    const name = hostname();
    const added = await addDomainTo(client, site.id, name);
    // Only the CNAME: the TXT proof is missing, so ownership is never shown.
    dns.set(name, { cname: `${site.subdomain}.localhost` });
    const start = new Date();
    for (let attempt = 1; attempt <= DOMAIN_MAX_TRIES; attempt++) {
      expect(await provisionAt(server, at(start, (attempt - 1) * DOMAIN_TRY_INTERVAL_MS))).toBe(1);
    }
    const failed = await rowOf(added.id);
    expect(failed).toMatchObject({
      status: "failed",
      attempts: DOMAIN_MAX_TRIES,
      error: DOMAIN_ERRORS.validationTimedOut,
      next_attempt_at: null,
      verified_at: null,
    });
    expect(await provisionAt(server, at(start, 3_600_000))).toBe(0);
    const shown = (await client.get(`/api/sites/${site.id}/domains`)).json().domains[0];
    expect(shown).toMatchObject({ status: "failed", error: "Domain validation timed out", attempts: 10 });
    // The owner hears of the failure once, with its reason; the tries before it were not news.
    const failures = await noticesOf(client, "domain_failed");
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ title: `${name} could not be set up`, site_id: site.id });
    expect(failures[0]!.body).toMatch(/^Domain validation timed out\. /);

    const again = await client.post(`/api/domains/${added.id}/check`);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ status: "pending", attempts: 0, error: null });
    publishRecords(dns, added);
    const retry = new Date();
    await provisionAt(server, retry);
    await provisionAt(server, at(retry, DOMAIN_DNS_WAIT_MS));
    expect(await rowOf(added.id)).toMatchObject({ status: "active" });
  });

  it("fails with 'Failed to set up DNS' when the resolver itself fails on the last try", async () => {
    const { client, site } = await proSite();
    const name = hostname();
    const added = await addDomainTo(client, site.id, name);
    dns.failing.add(`_berth.${name}`);
    const start = new Date();
    for (let attempt = 1; attempt <= DOMAIN_MAX_TRIES; attempt++) {
      await provisionAt(server, at(start, (attempt - 1) * DOMAIN_TRY_INTERVAL_MS));
    }
    expect(await rowOf(added.id)).toMatchObject({ status: "failed", error: DOMAIN_ERRORS.dnsFailed });
  });

  it("does not verify a TXT record with another token, or records that point elsewhere", async () => {
    const { client, site } = await proSite();
    const wrongToken = await addDomainTo(client, site.id, hostname());
    dns.set(`_berth.${wrongToken.hostname}`, { txt: ["berth-00000000000000000000000000000000"] });
    dns.set(wrongToken.hostname, { cname: `${site.subdomain}.localhost` });
    const elsewhere = await addDomainTo(client, site.id, hostname());
    publishRecords(dns, elsewhere);
    dns.set(elsewhere.hostname, { cname: "someone-else.example.net" });
    await provisionAt(server, new Date());
    expect(await rowOf(wrongToken.id)).toMatchObject({ status: "dns_check", verified_at: null });
    expect(await rowOf(elsewhere.id)).toMatchObject({ status: "dns_check", verified_at: null });
  });

  it("fails the certificate step with 'Failed to add custom domain' when DNS stops pointing at Berth", async () => {
    const { client, site } = await proSite();
    const added = await addDomainTo(client, site.id, hostname());
    publishRecords(dns, added);
    const start = new Date();
    await provisionAt(server, start);
    dns.set(added.hostname, { cname: "moved.example.net" });
    for (let attempt = 1; attempt <= DOMAIN_MAX_TRIES; attempt++) {
      await provisionAt(server, at(start, DOMAIN_DNS_WAIT_MS + (attempt - 1) * DOMAIN_TRY_INTERVAL_MS));
      if (attempt < DOMAIN_MAX_TRIES) expect(await rowOf(added.id)).toMatchObject({ status: "certificate", attempts: attempt });
    }
    expect(await rowOf(added.id)).toMatchObject({ status: "failed", error: DOMAIN_ERRORS.addFailed, activated_at: null });
    expect(server.ctx.domains.target(added.hostname)).toBeUndefined();
  });

  it("refuses a takeover by a second account: on add once verified, and at verification when it lost the race", async () => {
    const first = await proSite();
    const second = await proSite();
    const name = hostname();
    // Both claim the name before anyone has proved it: unverified claims do not block each other.
    const mine = await addDomainTo(first.client, first.site.id, name);
    const theirs = await addDomainTo(second.client, second.site.id, name);
    publishRecords(dns, mine);
    const start = new Date();
    await provisionAt(server, start);
    expect(await rowOf(mine.id)).toMatchObject({ status: "certificate" });
    // The first owner's records hold the first owner's token only.
    expect(await rowOf(theirs.id)).toMatchObject({ status: "dns_check", verified_at: null });
    await provisionAt(server, at(start, DOMAIN_DNS_WAIT_MS));
    expect(await rowOf(mine.id)).toMatchObject({ status: "active" });

    // Even with their token and their CNAME published, the second claim cannot be verified.
    publishRecords(dns, theirs);
    await provisionAt(server, at(start, DOMAIN_DNS_WAIT_MS + DOMAIN_TRY_INTERVAL_MS));
    expect(await rowOf(theirs.id)).toMatchObject({ status: "failed", error: DOMAIN_TEXT.taken, verified_at: null });
    expect(server.ctx.domains.target(name)).toEqual({ siteId: first.site.id, subdomain: first.site.subdomain });

    // A third account cannot even add it now.
    const third = await proSite();
    const refused = await third.client.post(`/api/sites/${third.site.id}/domains`, { domain: name });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toEqual({ code: "domain_taken", message: DOMAIN_TEXT.taken });
    // And Check again on the losing claim leads to the same refusal.
    expect((await second.client.post(`/api/domains/${theirs.id}/check`)).json()).toMatchObject({ status: "pending" });
    await provisionAt(server, new Date(Date.now() + 1000));
    expect(await rowOf(theirs.id)).toMatchObject({ status: "failed", error: DOMAIN_TEXT.taken });
  });

  it("steps each due domain once, however many workers ask at the same time", async () => {
    const { client, site } = await proSite();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await addDomainTo(client, site.id, hostname(`w${i}`))).id);
    const now = new Date();
    const lookup = createDnsLookup(server.ctx.env.dnsServers);
    const counts = await Promise.all([0, 1, 2].map(() => provisionDueDomains(server.ctx, lookup, now)));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(5);
    for (const id of ids) expect(await rowOf(id)).toMatchObject({ status: "dns_check", attempts: 1 });
  });

  it("drops a step's outcome when Check again came in while it ran", async () => {
    const { client, site, user } = await proSite();
    const added = await addDomainTo(client, site.id, hostname());
    const now = new Date();
    const lease = at(now, 60_000);
    const claimed = await claimDueDomains(server.ctx.db, now, lease, 100);
    expect(claimed.map((d) => d.id)).toContain(added.id);
    await restartDomainForUser(server.ctx.db, user.id, added.id, now);
    expect(await recordDomainStep(server.ctx.db, added.id, lease, { status: "failed", error: "stale" }, now)).toBeUndefined();
    expect(await rowOf(added.id)).toMatchObject({ status: "pending", error: null });
  });

  it("leaves the domains of a deleted site alone until it is restored", async () => {
    const { client, site } = await proSite();
    const added = await addDomainTo(client, site.id, hostname());
    await client.delete(`/api/sites/${site.id}`);
    await provisionAt(server, new Date());
    expect(await rowOf(added.id)).toMatchObject({ status: "pending", attempts: 0 });
    await client.post(`/api/sites/${site.id}/restore`, {});
    await provisionAt(server, new Date());
    expect(await rowOf(added.id)).toMatchObject({ status: "dns_check", attempts: 1 });
  });

  it("runs in the worker role's loop, through BERTH_DNS_SERVERS, without anyone calling it", async () => {
    const { client, site } = await proSite();
    const added = await addDomainTo(client, site.id, hostname());
    publishRecords(dns, added);
    const worker = startWorker(server.ctx, undefined, 60_000, 50);
    try {
      await expect.poll(async () => (await rowOf(added.id)).status, { timeout: 5_000 }).toBe("certificate");
    } finally {
      await worker.stop();
    }
  });

  it("resumes after a restart: the schedule is the row", async () => {
    const { client, site } = await proSite();
    const added = await addDomainTo(client, site.id, hostname());
    publishRecords(dns, added);
    const start = new Date();
    await provisionAt(server, start);
    server = await server.restart();
    expect(await provisionAt(server, at(start, DOMAIN_DNS_WAIT_MS))).toBe(1);
    expect(await rowOf(added.id)).toMatchObject({ status: "active" });
  });
});

describe.each(DRIVERS)("apex domains (%s)", (driver) => {
  let dns: TestDnsServer;
  let server: TestServer;
  beforeAll(async () => {
    dns = await TestDnsServer.start();
    server = await getTestServer(driver, { env: { BERTH_DNS_SERVERS: dns.address, BERTH_PUBLIC_IPS: "192.0.2.10, 2001:db8::10" } });
  });
  afterAll(async () => {
    await server.close();
    await dns.close();
  });

  it("asks for A and AAAA records to the operator's addresses, and verifies them", async () => {
    const { client, site } = await ownerWithSite(server, "pro", [{ name: "index.html", data: "<h1>Apex</h1>" }]);
    const name = `apex-${driver}.test`;
    const added = await addDomainTo(client, site.id, name);
    expect(added.records).toEqual([
      { type: "A", name, value: "192.0.2.10" },
      { type: "AAAA", name, value: "2001:db8::10" },
      { type: "TXT", name: `_berth.${name}`, value: expect.any(String) },
    ]);
    publishRecords(dns, added);
    await provisionAt(server, new Date());
    expect((await server.ctx.db.select().from(domains).where(eq(domains.id, added.id)))[0]).toMatchObject({ status: "certificate" });
  });

  it("does not accept an address that is not the operator's", async () => {
    const { client, site } = await ownerWithSite(server, "pro", [{ name: "index.html", data: "<h1>Apex</h1>" }]);
    const name = `other-${driver}.test`;
    const added = await addDomainTo(client, site.id, name);
    publishRecords(dns, added);
    dns.set(name, { a: ["192.0.2.10", "198.51.100.7"] });
    await provisionAt(server, new Date());
    expect((await server.ctx.db.select().from(domains).where(eq(domains.id, added.id)))[0]).toMatchObject({ status: "dns_check" });
  });
});

describe("apex domains without fixed addresses", () => {
  it("asks for an ALIAS to the site's host, and accepts the flattened addresses of that host", async () => {
    const dns = await TestDnsServer.start();
    const server = await getTestServer("pglite", { env: { BERTH_DNS_SERVERS: dns.address } });
    try {
      const { client, site } = await ownerWithSite(server, "pro", [{ name: "index.html", data: "<h1>Apex</h1>" }]);
      const added = await addDomainTo(client, site.id, "flat.test");
      expect(added.records.map((r) => [r.type, r.name, r.value])).toEqual([
        ["ALIAS", "flat.test", `${site.subdomain}.localhost`],
        ["TXT", "_berth.flat.test", added.records[1]!.value],
      ]);
      publishRecords(dns, added);
      // What a provider's ALIAS answers: the target's own addresses at the apex.
      dns.set(`${site.subdomain}.localhost`, { a: ["203.0.113.5"] });
      dns.set("flat.test", { a: ["203.0.113.5"] });
      await provisionAt(server, new Date());
      expect((await server.ctx.db.select().from(domains).where(eq(domains.id, added.id)))[0]).toMatchObject({ status: "certificate" });
    } finally {
      await server.close();
      await dns.close();
    }
  });
});
