// Caddy's on-demand TLS in front of Berth, as the README sets it up, with Caddy's internal CA in
// place of an ACME CA. A Pro user adds two custom domains to a site; a DNS server on loopback
// (BERTH_DNS_SERVERS) publishes the records Berth asked for, the TXT proof for one of them only.
// Berth's own provisioning job verifies and activates that one (the 30 s wait after DNS included);
// Caddy then issues it a certificate and serves the site over HTTPS. The unverified domain, and
// the verified one before it is active, get no certificate: the TLS handshake fails. Once the
// domain is removed, the site is no longer served on it, even through Caddy's cached certificate.
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DOMAIN_DNS_WAIT_MS, type DnsRecord, type DomainListResponse, type DomainResponse } from "../common/domains";
import { TestDnsServer } from "../server/test/dnsServer";
import { multipartBody } from "../server/test/sites";
import { root, startBerth, type Berth } from "./support/berth";
import { findCaddy, httpsGet, startCaddy, type Caddy } from "./support/caddy";
import { waitFor } from "./support/pages";

const caddyBinary = findCaddy();
if (!caddyBinary) console.warn("caddy-tls.e2e: skipped, Caddy is not installed (apt-get install -y caddy; .ci/run installs it)");

const VERIFIED = "docs.acme.test";
const UNVERIFIED = "www.unproven.test";
// Caddy's answer to a handshake for a name it may not certify: TLS alert 80.
const REFUSED = /alert internal error/;
const PAGE = "<!doctype html><title>Acme docs</title><h1>Acme docs, on their own domain</h1>";

/** Creates records at the "DNS provider", as the user would from the list Berth shows. */
function publish(dns: TestDnsServer, records: readonly DnsRecord[]): void {
  for (const record of records) {
    if (record.type === "CNAME") dns.set(record.name, { cname: record.value });
    else if (record.type === "TXT") dns.set(record.name, { txt: [record.value] });
    else throw new Error(`this test publishes CNAME and TXT records only, not ${record.type}`);
  }
}

/** `npm run berth -- admin set-plan`, as the operator gives a user Pro. */
function setPlanPro(berth: Berth, email: string): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn("npm", ["run", "--silent", "berth", "--", "admin", "set-plan", email, "pro"], {
      cwd: root,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", BERTH_DATA_DIR: berth.dataDir, BERTH_APP_URL: berth.url },
      stdio: "ignore",
    });
    child.on("error", reject);
    child.on("exit", resolve);
  });
}

describe.skipIf(!caddyBinary)("Caddy's on-demand TLS in front of Berth", () => {
  let dns: TestDnsServer;
  let berth: Berth;
  let caddy: Caddy;
  let api: string;
  let cookie = "";

  /** The dashboard's API as a signed-in browser calls it (writes carry the app's Origin). */
  async function call(method: string, pathname: string, body?: unknown): Promise<Response> {
    const headers: Record<string, string> = { cookie, origin: berth.url };
    if (body !== undefined) headers["content-type"] = "application/json";
    return fetch(`${api}${pathname}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  }

  async function domainNamed(hostname: string): Promise<DomainResponse> {
    const { domains } = (await (await call("GET", "/api/domains")).json()) as DomainListResponse;
    const domain = domains.find((d) => d.hostname === hostname);
    if (!domain) throw new Error(`${hostname} is not listed`);
    return domain;
  }

  async function statusBecomes(hostname: string, status: DomainResponse["status"], timeoutMs: number): Promise<DomainResponse> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const domain = await domainNamed(hostname);
      if (domain.status === status) return domain;
      if (domain.status === "failed" || Date.now() > deadline)
        throw new Error(`${hostname} is ${domain.status} (${domain.error ?? "no error"}), not ${status}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  beforeAll(async () => {
    dns = await TestDnsServer.start();
    berth = await startBerth({ BERTH_DNS_SERVERS: dns.address });
    api = `http://127.0.0.1:${berth.port}`;
    // The ask endpoint is on the dashboard's side, reached by address as an operator's Caddy on
    // the same machine would; every request Caddy forwards keeps the visitor's Host.
    caddy = await startCaddy(caddyBinary!, { askUrl: `${api}/internal/tls/ask`, upstream: `127.0.0.1:${berth.port}` });
  });
  afterAll(async () => {
    await caddy?.stop();
    await berth?.stop();
    await dns?.close();
  });

  it(
    "serves a verified, active domain over HTTPS with a certificate for it, refuses an unverified one, and stops serving a removed one",
    async () => {
      const email = "acme.owner@example.com";
      const password = "a long enough password";
      const signUp = await call("POST", "/api/auth/sign-up/email", { email, password, name: "Acme Owner" });
      expect(signUp.status).toBe(200);
      const confirm = await waitFor(() => berth.outbox.lastLink(email, /Confirm your e-mail/));
      expect((await fetch(confirm.replace(berth.url, api), { redirect: "manual" })).status).toBe(302);
      expect(await setPlanPro(berth, email)).toBe(0);
      const signIn = await call("POST", "/api/auth/sign-in/email", { email, password });
      expect(signIn.status).toBe(200);
      cookie = signIn.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; ");

      const reserved = (await (await call("POST", "/api/subdomains/reserve", {})).json()) as { subdomain: string };
      const upload = multipartBody({ name: "Acme docs", subdomain: reserved.subdomain }, { name: "index.html", content: PAGE, type: "text/html" });
      const created = await fetch(`${api}/api/sites`, {
        method: "POST",
        headers: { cookie, origin: berth.url, "content-type": upload.contentType },
        body: new Uint8Array(upload.body),
      });
      expect(created.status).toBe(201);
      const site = (await created.json()) as { id: string };

      // Both domains point at the site; only the first proves ownership with its TXT record.
      const verified = await call("POST", `/api/sites/${site.id}/domains`, { domain: VERIFIED });
      expect(verified.status).toBe(201);
      const unverified = await call("POST", `/api/sites/${site.id}/domains`, { domain: UNVERIFIED });
      expect(unverified.status).toBe(201);
      const added = (await verified.json()) as DomainResponse;
      publish(dns, added.records);
      publish(
        dns,
        ((await unverified.json()) as DomainResponse).records.filter((record) => record.type !== "TXT"),
      );

      // Verified, waiting out the 30 s before going active: not yet a name Caddy may certify.
      await statusBecomes(VERIFIED, "certificate", 15_000);
      await expect(httpsGet(caddy.httpsPort, VERIFIED, caddy.rootCa)).rejects.toThrow(REFUSED);

      await statusBecomes(VERIFIED, "active", DOMAIN_DNS_WAIT_MS + 30_000);
      const served = await httpsGet(caddy.httpsPort, VERIFIED, caddy.rootCa);
      expect(served.status).toBe(200);
      expect(served.body).toBe(PAGE);
      expect(served.certificate.subjectaltname).toBe(`DNS:${VERIFIED}`);
      expect(served.certificate.issuer.CN).toMatch(/Caddy Local Authority/);

      // Still unproven after all of that time, so Caddy never gets a yes for it.
      expect((await domainNamed(UNVERIFIED)).verified_at).toBeNull();
      await expect(httpsGet(caddy.httpsPort, UNVERIFIED, caddy.rootCa)).rejects.toThrow(REFUSED);
      await expect(httpsGet(caddy.httpsPort, "never-added.example.test", caddy.rootCa)).rejects.toThrow(REFUSED);

      // Removed: Caddy keeps the certificate it holds, but Berth stops serving the site at once.
      expect((await call("DELETE", `/api/domains/${added.id}`)).status).toBe(204);
      const removed = await httpsGet(caddy.httpsPort, VERIFIED, caddy.rootCa);
      expect(removed.body).not.toContain("Acme docs");
    },
    DOMAIN_DNS_WAIT_MS + 60_000,
  );
});
