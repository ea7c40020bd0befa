// Decides, from the Host header alone, whether a request is for the dashboard or for a hosted site.
import { EdgeMemory, type MemoryPart } from "./memory/budget";
import { ByteMap } from "./memory/byteMap";
import { hostValueBytes } from "./memory/sizes";

/** A DNS name has at most 253 characters (RFC 1035 §2.3.4, without the trailing dot)… */
export const MAX_HOST_NAME = 253;
/** …in labels of at most 63. */
export const MAX_HOST_LABEL = 63;
/** The longest Host field of such a name: a trailing dot and ":65535" besides. */
const MAX_HOST_FIELD = MAX_HOST_NAME + ".:65535".length;

/**
 * A Host no DNS name can be: longer than 253 characters (not counting a port and a trailing dot),
 * a label longer than 63, or more than a port besides. Such a request is answered 400 at once and
 * remembered nowhere (httpServer.ts). Up to 63 characters nothing can be too long, so the usual
 * Host costs one comparison.
 */
export function impossibleHost(hostHeader: string | undefined): boolean {
  if (hostHeader === undefined || hostHeader.length <= MAX_HOST_LABEL) return false;
  if (hostHeader.length > MAX_HOST_FIELD) return true;
  let name = hostHeader.trim();
  // An IPv6 literal is short, and has colons of its own: its length is all there is to check.
  if (name.startsWith("[")) return false;
  const colon = name.lastIndexOf(":");
  if (colon !== -1) name = name.slice(0, colon);
  if (name.endsWith(".")) name = name.slice(0, -1);
  return name.length > MAX_HOST_NAME || name.split(".").some((label) => label.length > MAX_HOST_LABEL);
}

/** Lower-cases the host and strips the port and a trailing dot; undefined for a malformed host. */
export function normalizeHost(hostHeader: string | undefined): string | undefined {
  if (!hostHeader) return undefined;
  let host = hostHeader.trim().toLowerCase();
  if (host.startsWith("[")) return host.slice(0, host.indexOf("]") + 1) || undefined;
  const colon = host.lastIndexOf(":");
  if (colon !== -1) host = host.slice(0, colon);
  if (host.endsWith(".")) host = host.slice(0, -1);
  return host || undefined;
}

export interface HostRouter {
  /**
   * The subdomain label when `host` is {label}.{sitesDomain}, or the site's subdomain when it is
   * an active custom domain (served exactly as that host); undefined otherwise.
   */
  siteLabel(hostHeader: string | undefined): string | undefined;
  /**
   * The label when `host` is {label}.{sitesDomain}, whose answer never changes (unlike a custom
   * domain's): a connection may remember it for its next requests with the same Host.
   */
  stableLabel(hostHeader: string): string | undefined;
}

/** Active custom domains, from memory (edge/customDomains.ts). */
export interface CustomDomainHosts {
  target(host: string): { subdomain: string } | undefined;
}

export interface HostRouterOptions {
  appUrl: string;
  sitesDomain: string;
  customDomains?: CustomDomainHosts;
  /** The edge's budget, whose `hostValues` part bounds the Host values remembered. */
  memory?: EdgeMemory;
}

export function createHostRouter(options: HostRouterOptions): HostRouter {
  const appHost = new URL(options.appUrl).hostname.toLowerCase();
  const suffix = "." + options.sitesDomain;
  const { customDomains } = options;
  const part: MemoryPart = (options.memory ?? new EdgeMemory(256 * 1024 * 1024)).part("hostValues");
  // Host header as sent → its label, for hosts under the sites domain only: their answer never
  // changes, unlike a custom domain's, which is asked of the registry every time. Random host
  // names must not grow it without end: bounded by bytes, the oldest go first.
  const stable = new ByteMap<string, string>(part, hostValueBytes);
  const labelOf = (hostHeader: string | undefined, stableOnly: boolean) => {
    if (hostHeader !== undefined) {
      const known = stable.get(hostHeader);
      if (known !== undefined) return known;
      if (impossibleHost(hostHeader)) return undefined;
    }
    const host = normalizeHost(hostHeader);
    if (!host || host === appHost) return undefined;
    // Any other host goes to Fastify, as before: the dashboard stays reachable by IP or localhost.
    if (!host.endsWith(suffix)) return stableOnly ? undefined : customDomains?.target(host)?.subdomain;
    const label = host.slice(0, -suffix.length);
    if (label.length === 0) return undefined;
    stable.set(hostHeader!, label);
    return label;
  };
  return {
    siteLabel: (hostHeader) => labelOf(hostHeader, false),
    stableLabel: (hostHeader) => labelOf(hostHeader, true),
  };
}
