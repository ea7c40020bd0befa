// better-auth names secure cookies "__Secure-…". Over HTTPS Berth renames them to "__Host-…" on
// the way out and back on the way in: a __Host- cookie must be Secure, Path=/ and carry no
// Domain, so a page on a sibling subdomain can neither set nor shadow the dashboard's session.
const SECURE = "__Secure-berth.";
const HOST = "__Host-berth.";

export function toHostPrefix(setCookie: string): string {
  return setCookie.startsWith(SECURE) ? HOST + setCookie.slice(SECURE.length) : setCookie;
}

export function fromHostPrefix(cookieHeader: string): string {
  return (
    cookieHeader
      .split(";")
      .map((part) => part.trim())
      // A client-sent __Secure-berth.* cookie could have been planted by a sibling host; drop it.
      .filter((part) => !part.startsWith(SECURE))
      .map((part) => (part.startsWith(HOST) ? SECURE + part.slice(HOST.length) : part))
      .join("; ")
  );
}

const OWN_COOKIE = /^(?:__Secure-|__Host-)?berth\./;
const nameOf = (part: string) => part.slice(0, part.includes("=") ? part.indexOf("=") : part.length).trim();

/**
 * The Cookie header better-auth is given, on every route. Over HTTPS the __Host- cookies become
 * better-auth's names again (fromHostPrefix). Then any Berth cookie that appears more than once
 * is dropped, every copy of it: a page on a sibling host can plant a second session cookie with
 * Domain= set (over HTTP nothing prevents it), the browser may send it first, and better-auth
 * takes the first, which would sign the user in as the planter. Without it the request simply
 * has no session (401), never someone else's.
 */
export function authCookieHeader(cookieHeader: string, hostPrefixed: boolean): string {
  const parts = (hostPrefixed ? fromHostPrefix(cookieHeader) : cookieHeader)
    .split(";")
    .map((part) => part.trim())
    .filter((part) => part !== "");
  const counts = new Map<string, number>();
  for (const part of parts) {
    const name = nameOf(part);
    if (OWN_COOKIE.test(name)) counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return parts.filter((part) => (counts.get(nameOf(part)) ?? 0) <= 1).join("; ");
}
