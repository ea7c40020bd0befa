// Where a webhook's request goes: the URL's host looked up once, every address it has checked
// (isPublicAddress), and one of them handed to the request (send.ts pins it), so what is connected
// to is what was checked: a name that answers a public address to the check and a private one to
// the connection (DNS rebinding) gets no second lookup. The URL parser has already turned odd
// spellings of an address (decimal 2130706433, hex 0x7f.1, [::ffff:7f00:1]) into the plain form.
import { isIP } from "node:net";
import { WEBHOOK_TEXT } from "../../common/webhooks";
import type { DnsLookup } from "../dns";
import { isPublicAddress } from "./addresses";

export interface WebhookTarget {
  url: URL;
  /** The address to connect to, checked. */
  address: string;
  family: 4 | 6;
}

export type TargetRefusal = { code: "webhook_private_address" | "webhook_host_not_found" | "webhook_lookup_failed"; message: string };

export type TargetResult = { ok: true; target: WebhookTarget } | ({ ok: false } & TargetRefusal);

/** localhost and *.localhost are loopback by definition (RFC 6761), whatever a DNS server says. */
const isLocalhostName = (host: string) => host === "localhost" || host.endsWith(".localhost");

export async function resolveWebhookTarget(rawUrl: string, dns: DnsLookup, allowPrivate: boolean): Promise<TargetResult> {
  const url = new URL(rawUrl);
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname.replace(/\.$/, "").toLowerCase();
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else if (isLocalhostName(host)) addresses = ["127.0.0.1", "::1"];
  else {
    const answer = await dns.addresses(host);
    if (!answer.ok) return { ok: false, code: "webhook_lookup_failed", message: WEBHOOK_TEXT.lookupFailed(host) };
    if (answer.records.length === 0) return { ok: false, code: "webhook_host_not_found", message: WEBHOOK_TEXT.hostNotFound(host) };
    addresses = answer.records;
  }
  // Every address must pass, not one: the connection could otherwise be steered to the private one.
  if (!allowPrivate && !addresses.every(isPublicAddress)) {
    return { ok: false, code: "webhook_private_address", message: WEBHOOK_TEXT.privateAddress(host) };
  }
  // IPv4 first: a server is more often without IPv6 connectivity than without IPv4.
  const address = addresses.find((a) => isIP(a) === 4) ?? addresses[0]!;
  return { ok: true, target: { url, address, family: isIP(address) === 6 ? 6 : 4 } };
}
