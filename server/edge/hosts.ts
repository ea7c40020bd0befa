// Decides, from the Host header alone, whether a request is for the dashboard or for a hosted site.
import { EdgeMemory, type MemoryPart } from "./memory/budget";
import { ByteMap } from "./memory/byteMap";
import { hostValueBytes } from "./memory/sizes";
import { impossibleHost, normalizeHost } from "../http/host";

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

/** Active custom domains, from memory (sites/domainRegistry.ts). */
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
