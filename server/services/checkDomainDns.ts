// What a custom domain's DNS must say, and whether it says it. Ownership: the TXT record
// `_berth.{hostname}` holds the domain's token. Pointing at Berth: a CNAME to the site's host, or
// A/AAAA records that are all Berth's (BERTH_PUBLIC_IPS, or the site host's own addresses, which
// is what an ALIAS/ANAME or a flattened CNAME at the apex answers with).
import { DOMAIN_TXT_LABEL, isApexDomain, type DnsRecord } from "../../common/domains";
import type { DnsLookup } from "../dns";

export interface DomainDnsTarget {
  hostname: string;
  token: string;
  /** The site's host, {subdomain}.{BERTH_SITES_DOMAIN}: the CNAME's value. */
  siteHost: string;
}

/** The records the owner creates at their DNS provider. */
export function domainRecords(target: DomainDnsTarget, publicIps: readonly string[]): DnsRecord[] {
  const { hostname, token, siteHost } = target;
  const proof: DnsRecord = { type: "TXT", name: `${DOMAIN_TXT_LABEL}.${hostname}`, value: token };
  if (!isApexDomain(hostname)) return [{ type: "CNAME", name: hostname, value: siteHost }, proof];
  // An apex cannot hold a CNAME: the operator's addresses, or the provider's ALIAS/ANAME.
  if (publicIps.length === 0) return [{ type: "ALIAS", name: hostname, value: siteHost }, proof];
  const pointers = publicIps.map((ip): DnsRecord => ({ type: ip.includes(":") ? "AAAA" : "A", name: hostname, value: ip }));
  return [...pointers, proof];
}

/** `failed`: a lookup could not be answered (SERVFAIL, refused, timeout), so the check proved nothing. */
export type DnsCheck = { ok: true } | { ok: false; resolverFailed: boolean };

/** The TXT proof and the pointer together: the DNS step. */
export async function checkOwnershipAndPointer(dns: DnsLookup, target: DomainDnsTarget, publicIps: readonly string[]): Promise<DnsCheck> {
  const [txt, pointer] = await Promise.all([dns.txt(`${DOMAIN_TXT_LABEL}.${target.hostname}`), checkPointer(dns, target, publicIps)]);
  if (!txt.ok) return { ok: false, resolverFailed: true };
  if (!txt.records.some((value) => value.trim() === target.token)) return { ok: false, resolverFailed: false };
  return pointer;
}

/** Whether the hostname leads to Berth: the certificate step checks this again before going live. */
export async function checkPointer(dns: DnsLookup, target: DomainDnsTarget, publicIps: readonly string[]): Promise<DnsCheck> {
  const cname = await dns.cname(target.hostname);
  if (cname.ok && cname.records.includes(target.siteHost)) return { ok: true };
  const [addresses, berths] = await Promise.all([dns.addresses(target.hostname), dns.addresses(target.siteHost)]);
  if (!addresses.ok) return { ok: false, resolverFailed: true };
  const allowed = new Set([...publicIps, ...(berths.ok ? berths.records : [])]);
  if (addresses.records.length > 0 && addresses.records.every((address) => allowed.has(address))) return { ok: true };
  return { ok: false, resolverFailed: !cname.ok || !berths.ok };
}
