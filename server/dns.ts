// DNS lookups for custom domains. They go through their own resolver, so BERTH_DNS_SERVERS can
// point them at another server (tests start one on loopback) without touching the process's
// system resolver. A lookup answers what it found, or says the resolver itself failed: "no such
// record" is an answer, SERVFAIL, REFUSED or a timeout is not.
import { Resolver } from "node:dns/promises";
import { isIPv4, isIPv6 } from "node:net";

/** What a lookup found; `failed` when the resolver could not answer (the record may still exist). */
export type DnsAnswer<T> = { ok: true; records: T[] } | { ok: false; failed: true };

export interface DnsLookup {
  /** TXT records, each joined from its character strings. */
  txt(name: string): Promise<DnsAnswer<string>>;
  /** CNAME targets, lower case, without a trailing dot. */
  cname(name: string): Promise<DnsAnswer<string>>;
  /** A and AAAA records together, canonical (see canonicalIp). */
  addresses(name: string): Promise<DnsAnswer<string>>;
}

/** Answers that mean "there is no such record", as opposed to "the resolver failed". */
const NO_RECORD = new Set(["ENODATA", "ENOTFOUND", "ENONAME"]);

/** Each try waits this long for an answer; a check runs every 5 s, so lookups must not outlast it. */
const TIMEOUT_MS = 1_500;
const TRIES = 2;

export function createDnsLookup(servers: readonly string[] | undefined): DnsLookup {
  const resolver = new Resolver({ timeout: TIMEOUT_MS, tries: TRIES });
  if (servers) resolver.setServers([...servers]);

  const ask = async <T>(lookup: () => Promise<T[]>): Promise<DnsAnswer<T>> => {
    try {
      return { ok: true, records: await lookup() };
    } catch (error) {
      if (NO_RECORD.has((error as NodeJS.ErrnoException).code ?? "")) return { ok: true, records: [] };
      return { ok: false, failed: true };
    }
  };

  return {
    txt: (name) => ask(async () => (await resolver.resolveTxt(name)).map((chunks) => chunks.join(""))),
    cname: (name) => ask(async () => (await resolver.resolveCname(name)).map((target) => target.toLowerCase().replace(/\.$/, ""))),
    async addresses(name) {
      const [v4, v6] = await Promise.all([ask(() => resolver.resolve4(name)), ask(() => resolver.resolve6(name))]);
      if (!v4.ok || !v6.ok) return { ok: false, failed: true };
      return { ok: true, records: [...v4.records, ...v6.records].map((address) => canonicalIp(address)).filter((address) => address !== undefined) };
    },
  };
}

/**
 * An IP address in one spelling, so `2001:DB8::1` and `2001:db8:0:0:0:0:0:1` compare equal;
 * undefined for anything that is not an address.
 */
export function canonicalIp(address: string): string | undefined {
  const trimmed = address.trim();
  if (isIPv4(trimmed)) return trimmed.split(".").map(Number).join(".");
  if (!isIPv6(trimmed)) return undefined;
  try {
    // The URL parser writes IPv6 hosts in their RFC 5952 form.
    return new URL(`http://[${trimmed}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
}
