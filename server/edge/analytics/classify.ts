// What one served request counts as: a page view, a bot, which referring site, which path. Pure
// functions of the request's fields, run when a batch is written, never on the serving path.

/** Longest path kept; longer ones are cut (random URLs must not bloat the tables). */
export const MAX_PATH_CHARS = 512;
const MAX_HOST_CHARS = 253;

// Crawlers, previews, monitors and scripts name themselves; browsers never use these words.
const BOT =
  /bot|crawl|spider|slurp|archiver|fetch|scan|monitor|uptime|preview|headless|lighthouse|pingdom|facebookexternalhit|embedly|whatsapp|telegram|discord|slack|curl|wget|httpie|python|java\/|go-http|okhttp|axios|node|libwww|perl|ruby|php|postman|insomnia|wrk|ab\/|apachebench|k6|jmeter|gatling|phantom|selenium|puppeteer|playwright/i;

/** A client that says it is not a person, or says nothing at all (scripts rarely send one). */
export function isBot(userAgent: string | undefined): boolean {
  return userAgent === undefined || userAgent.trim() === "" || BOT.test(userAgent);
}

/** The path of a request target, without its query, cut to MAX_PATH_CHARS. */
export function pathOf(url: string): string {
  const query = url.indexOf("?");
  const path = query === -1 ? url : url.slice(0, query);
  return path.length > MAX_PATH_CHARS ? path.slice(0, MAX_PATH_CHARS) : path;
}

/** The last path segment has no extension, or an HTML one: what a page's URL looks like. */
function looksLikePage(path: string): boolean {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  if (dot === -1) return true;
  const extension = name.slice(dot + 1).toLowerCase();
  return extension === "html" || extension === "htm";
}

/**
 * A page view is a successful HTML answer. A 304 carries no Content-Type, so for a revalidated
 * page (every repeat view of a live host, which is `max-age=0, must-revalidate`) the path decides.
 */
export function isPageView(status: number, contentType: string | undefined, path: string): boolean {
  if (status === 200) return contentType !== undefined && contentType.startsWith("text/html");
  if (status === 304) return looksLikePage(path);
  return false;
}

/** A host without its port, lower-cased. */
export function hostName(host: string): string {
  const bracket = host.startsWith("[") ? host.indexOf("]") : -1;
  const colon = host.indexOf(":", bracket === -1 ? 0 : bracket);
  return (colon === -1 ? host : host.slice(0, colon)).toLowerCase();
}

/**
 * The referring site's host name, or null: no Referer, not an http(s) URL, or the same host as
 * the request (a visitor moving between pages of the site is not a referral).
 */
export function referrerHost(referer: string | undefined, requestHost: string): string | null {
  if (referer === undefined) return null;
  const scheme = referer.indexOf("://");
  if (scheme === -1) return null;
  const protocol = referer.slice(0, scheme).toLowerCase();
  if (protocol !== "http" && protocol !== "https") return null;
  let end = referer.length;
  for (const stop of ["/", "?", "#"]) {
    const at = referer.indexOf(stop, scheme + 3);
    if (at !== -1 && at < end) end = at;
  }
  let authority = referer.slice(scheme + 3, end);
  const at = authority.lastIndexOf("@");
  if (at !== -1) authority = authority.slice(at + 1);
  const host = hostName(authority);
  if (host === "" || host.length > MAX_HOST_CHARS || host === hostName(requestHost)) return null;
  return host;
}

/** The client's address: the socket's, or behind a trusted proxy X-Forwarded-For's last entry. */
export function visitorAddress(socketAddress: string | undefined, forwardedFor: string | undefined, trustProxy: boolean): string {
  if (trustProxy && forwardedFor !== undefined) {
    const last = forwardedFor.slice(forwardedFor.lastIndexOf(",") + 1).trim();
    if (last !== "") return last;
  }
  return socketAddress ?? "unknown";
}
