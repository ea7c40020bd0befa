// Decides, from the Host header alone, whether a request is for the dashboard or for a hosted site.

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

const MAX_STABLE_HOSTS = 10_000;

export function createHostRouter(options: { appUrl: string; sitesDomain: string; customDomains?: CustomDomainHosts }): HostRouter {
  const appHost = new URL(options.appUrl).hostname.toLowerCase();
  const suffix = "." + options.sitesDomain;
  const { customDomains } = options;
  // Host header as sent → its label, for hosts under the sites domain only: their answer never
  // changes, unlike a custom domain's, which is asked of the registry every time.
  const stable = new Map<string, string>();
  const labelOf = (hostHeader: string | undefined, stableOnly: boolean) => {
    if (hostHeader !== undefined) {
      const known = stable.get(hostHeader);
      if (known !== undefined) return known;
    }
    const host = normalizeHost(hostHeader);
    if (!host || host === appHost) return undefined;
    // Any other host goes to Fastify, as before: the dashboard stays reachable by IP or localhost.
    if (!host.endsWith(suffix)) return stableOnly ? undefined : customDomains?.target(host)?.subdomain;
    const label = host.slice(0, -suffix.length);
    if (label.length === 0) return undefined;
    // Random host names must not grow the map without end.
    if (stable.size >= MAX_STABLE_HOSTS) stable.clear();
    stable.set(hostHeader!, label);
    return label;
  };
  return {
    siteLabel: (hostHeader) => labelOf(hostHeader, false),
    stableLabel: (hostHeader) => labelOf(hostHeader, true),
  };
}
