// better-auth names secure cookies "__Secure-…". Over HTTPS Berth renames them to "__Host-…" on
// the way out and back on the way in: a __Host- cookie must be Secure, Path=/ and carry no
// Domain, so a page on a sibling subdomain can neither set nor shadow the dashboard's session.
const SECURE = "__Secure-berth.";
const HOST = "__Host-berth.";

export function toHostPrefix(setCookie: string): string {
  return setCookie.startsWith(SECURE) ? HOST + setCookie.slice(SECURE.length) : setCookie;
}

export function fromHostPrefix(cookieHeader: string): string {
  return cookieHeader
    .split(";")
    .map((part) => part.trim())
    // A client-sent __Secure-berth.* cookie could have been planted by a sibling host; drop it.
    .filter((part) => !part.startsWith(SECURE))
    .map((part) => (part.startsWith(HOST) ? SECURE + part.slice(HOST.length) : part))
    .join("; ");
}
