// Custom-domain test data through the real paths: the API adds the domain, the loopback DNS
// server publishes the records it asks for, and the provisioning job runs with a driven clock.
import { DOMAIN_DNS_WAIT_MS, type DomainResponse } from "../../common/domains";
import { createDnsLookup } from "../dns";
import { provisionDueDomains } from "../services/provisionDomains";
import type { TestDnsServer } from "./dnsServer";
import type { TestClient, TestServer } from "./support";

export async function addDomainTo(client: TestClient, siteId: string, hostname: string): Promise<DomainResponse> {
  const response = await client.post(`/api/sites/${siteId}/domains`, { domain: hostname });
  if (response.statusCode !== 201) throw new Error(`add domain failed: ${response.statusCode} ${response.body}`);
  return response.json();
}

/** Creates at the DNS server exactly the records the dashboard told the owner to create. */
export function publishRecords(dns: TestDnsServer, domain: Pick<DomainResponse, "records">): void {
  for (const record of domain.records) {
    const entry = dns.zone.get(record.name) ?? {};
    if (record.type === "TXT") dns.set(record.name, { txt: [...(entry.txt ?? []), record.value] });
    else if (record.type === "CNAME") dns.set(record.name, { cname: record.value });
    else if (record.type === "A") dns.set(record.name, { a: [...(entry.a ?? []), record.value] });
    else if (record.type === "AAAA") dns.set(record.name, { aaaa: [...(entry.aaaa ?? []), record.value] });
  }
}

/** One run of the provisioning job at `now`, through BERTH_DNS_SERVERS; waits for the edge's registry. */
export async function provisionAt(server: TestServer, now: Date): Promise<number> {
  const stepped = await provisionDueDomains(server.ctx, createDnsLookup(server.ctx.env.dnsServers), now);
  await server.ctx.domains.settled();
  return stepped;
}

/** Adds the domain, publishes its records and runs the job through the DNS check, the 30 s wait and the certificate step. */
export async function activeDomain(
  server: TestServer,
  dns: TestDnsServer,
  client: TestClient,
  siteId: string,
  hostname: string,
): Promise<DomainResponse> {
  const domain = await addDomainTo(client, siteId, hostname);
  publishRecords(dns, domain);
  const start = new Date();
  await provisionAt(server, start);
  await provisionAt(server, new Date(start.getTime() + DOMAIN_DNS_WAIT_MS));
  const active = (await client.get(`/api/sites/${siteId}/domains`)).json().domains.find((d: DomainResponse) => d.id === domain.id) as DomainResponse;
  if (active.status !== "active") throw new Error(`domain not active: ${JSON.stringify(active)}`);
  return active;
}
