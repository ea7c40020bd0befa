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
  /** The subdomain label when `host` is {label}.{sitesDomain}; undefined otherwise. */
  siteLabel(hostHeader: string | undefined): string | undefined;
}

export function createHostRouter(options: { appUrl: string; sitesDomain: string }): HostRouter {
  const appHost = new URL(options.appUrl).hostname.toLowerCase();
  const suffix = "." + options.sitesDomain;
  const siteLabel = (hostHeader: string | undefined) => {
    const host = normalizeHost(hostHeader);
    if (!host || host === appHost || !host.endsWith(suffix)) return undefined;
    const label = host.slice(0, -suffix.length);
    return label.length > 0 ? label : undefined;
  };
  return { siteLabel };
}
