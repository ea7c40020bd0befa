// The Host field as a name: the normal form Berth compares (lower case, no port, no trailing dot)
// and the values no DNS name can be. The edge routes by it; the API checks custom domains with it.

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
