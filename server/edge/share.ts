// Share links on a site's hosts. GET /_share/<token> checks the token's MAC (a tampered one is
// refused without a query), then the link: expired, revoked or out of views answers 410; with a
// password it shows a form that posts back to the link. An open is counted and logged in one
// statement, and the browser gets a share cookie for this host that opens the site (private or
// password-protected) until the cookie or the link ends. Checking that cookie needs no query:
// the cached host carries its links' expiry and revocation (resolver.ts).
import { addressKey } from "../http/address";
import type { IncomingMessage, OutgoingHttpHeaders } from "node:http";
import { SHARE_LINK_PASSWORD_LIMIT } from "../../common/limits";
import { SHARE_PAGE_TEXT, SHARE_PATH_PREFIX, shareLinkState } from "../../common/shareLinks";
import type { Db } from "../db/client";
import { countShareLinkOpen, getShareLinkOfSite, type ShareLink } from "../db/repositories/shareLinks";
import { privateSitePage, shareLinkGonePage, shareLinkNotFoundPage, shareLinkPasswordPage } from "./pages";
import { tryFormPassword } from "./passwordAttempt";
import { clientAddress, readForm } from "./protection";
import type { EdgeReply, EdgeRequest } from "./reply";
import type { ServedHost } from "./resolver";
import { linkIdOfToken, type ShareKeys } from "../sites/shareTokens";
import { checkShareCookie, issueShareCookie, shareCookieHeader, shareCookiesOf } from "./shareCookies";
import { NEVER_CACHE } from "../../common/siteCaching";

export interface ShareDeps {
  db: Db;
  shareKeys: ShareKeys;
  /** Behind a reverse proxy: the client address is X-Forwarded-For's last entry. */
  trustProxy: boolean;
  /** Told once per link, by the open that spent its last view (the owner's notice; compose.ts). */
  onShareLinkUsedUp?: (used: { siteId: string; linkId: string }) => void;
}

export interface PageAnswer {
  kind: "page";
  status: number;
  body: Buffer;
  headers: OutgoingHttpHeaders;
}

/** Never cached, never framed, never sends a Referer onwards. */
const GUARDED = {
  "cache-control": NEVER_CACHE,
  "referrer-policy": "no-referrer",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
} as const;

function answer(status: number, html: string, formAction = false): PageAnswer {
  const body = Buffer.from(html);
  const csp = `default-src 'none'; style-src 'unsafe-inline';${formAction ? " form-action 'self';" : ""} frame-ancestors 'none'`;
  return {
    kind: "page",
    status,
    body,
    headers: { "content-type": "text/html; charset=utf-8", "content-length": body.length, ...GUARDED, "content-security-policy": csp },
  };
}

/** Every path of a private site, to a browser without a share cookie. */
export const SITE_PRIVATE = answer(403, privateSitePage());
const LINK_GONE = answer(410, shareLinkGonePage());
const LINK_NOT_FOUND = answer(404, shareLinkNotFoundPage());

/** User agents logged per open are cut to this many characters. */
const USER_AGENT_MAX = 300;

/** Whether a request path (query included or not) is a share link's. */
export function isSharePath(url: string | undefined): boolean {
  return url !== undefined && url.startsWith(SHARE_PATH_PREFIX);
}

export interface ShareGate {
  /** A valid share cookie for this host's site, checked from memory. */
  admitted(req: EdgeRequest, host: ServedHost): boolean;
  /** GET or HEAD /_share/<token>; `path` without the query. HEAD counts nothing and sets nothing. */
  open(req: EdgeRequest, reply: EdgeReply, host: ServedHost, path: string): Promise<void>;
  /** POST /_share/<token>: the link's password form. */
  enter(req: IncomingMessage, reply: EdgeReply, host: ServedHost, path: string): Promise<void>;
}

export function createShareGate(deps: ShareDeps): ShareGate {
  const keys = deps.shareKeys;
  const send = (req: EdgeRequest, reply: EdgeReply, p: PageAnswer) => reply.send(p.status, p.headers, req.method === "HEAD" ? undefined : p.body);
  const passwordAnswer = (status: number, path: string, error?: string) => answer(status, shareLinkPasswordPage(path, error), true);

  /** This browser already opened this very link here: it goes on without spending a view. */
  const holds = (req: EdgeRequest, host: ServedHost, linkId: string, now: number) =>
    shareCookiesOf(req.headers.cookie).some((value) => checkShareCookie(keys, value, host.siteId, now)?.linkId === linkId);

  /** The link id a path's token names; undefined (404) when its MAC does not verify. */
  const linkIdOf = (path: string) => linkIdOfToken(keys, path.slice(SHARE_PATH_PREFIX.length));

  const home = (reply: EdgeReply, setCookie?: string) =>
    reply.send(303, { location: "/", "content-length": 0, ...GUARDED, ...(setCookie ? { "set-cookie": setCookie } : {}) });

  /** Counts and logs the open (unless the link closed meanwhile), then the cookie and home. */
  const admit = async (req: EdgeRequest, reply: EdgeReply, host: ServedHost, link: ShareLink, now: number): Promise<void> => {
    const userAgent = req.headers["user-agent"]?.slice(0, USER_AGENT_MAX) || null;
    // No GeoIP source is configured, so the country stays unknown.
    const counted = await countShareLinkOpen(deps.db, host.siteId, link.id, { at: new Date(now), userAgent, country: null });
    if (!counted.counted) return send(req, reply, LINK_GONE);
    if (counted.usedUp) deps.onShareLinkUsedUp?.({ siteId: host.siteId, linkId: link.id });
    const cookie = issueShareCookie(keys, host.siteId, link.id, link.expires_at?.getTime() ?? Infinity, now);
    home(reply, shareCookieHeader(keys, cookie));
  };

  return {
    admitted(req, host) {
      if (host.shareLinks.size === 0) return false;
      const now = Date.now();
      for (const value of shareCookiesOf(req.headers.cookie)) {
        const known = host.shares.get(value);
        if (known !== undefined) {
          if (known > now) return true;
          host.shares.delete(value);
          continue;
        }
        const cookie = checkShareCookie(keys, value, host.siteId, now);
        const link = cookie && host.shareLinks.get(cookie.linkId);
        if (!cookie || !link || link.revoked) continue;
        const expires = Math.min(cookie.expires, link.expiresAt);
        if (expires <= now) continue;
        host.shares.set(value, expires);
        return true;
      }
      return false;
    },

    async open(req, reply, host, path) {
      // A token whose MAC does not verify costs no query.
      const linkId = linkIdOf(path);
      if (linkId === undefined) return send(req, reply, LINK_NOT_FOUND);
      // Another site's link is not found here either.
      const link = await getShareLinkOfSite(deps.db, host.siteId, linkId);
      if (!link) return send(req, reply, LINK_NOT_FOUND);
      const now = Date.now();
      const state = shareLinkState(link, now);
      if (state === "revoked" || state === "expired") return send(req, reply, LINK_GONE);
      if (holds(req, host, link.id, now)) return home(reply);
      if (state === "exhausted") return send(req, reply, LINK_GONE);
      if (link.password_hash !== null) return send(req, reply, passwordAnswer(401, path));
      // HEAD (link checkers, previews) must not spend a view.
      if (req.method === "HEAD") return home(reply);
      return admit(req, reply, host, link, now);
    },

    async enter(req, reply, host, path) {
      const linkId = linkIdOf(path);
      // Read (and past the limit, drop) the body first, so the answer can go out on this socket.
      const form = await readForm(req);
      if (linkId === undefined) return send(req, reply, LINK_NOT_FOUND);
      if (!form) return send(req, reply, passwordAnswer(413, path, SHARE_PAGE_TEXT.tooLarge));
      const link = await getShareLinkOfSite(deps.db, host.siteId, linkId);
      if (!link) return send(req, reply, LINK_NOT_FOUND);
      const now = Date.now();
      if (shareLinkState(link, now) !== "active") return send(req, reply, LINK_GONE);
      if (link.password_hash !== null) {
        const key = `berth:share-password:${link.id}:${addressKey(clientAddress(req, deps.trustProxy))}`;
        const attempt = await tryFormPassword(deps.db, { key, rule: SHARE_LINK_PASSWORD_LIMIT }, form.get("password") ?? "", link.password_hash);
        if (attempt.limited) return send(req, reply, passwordAnswer(429, path, SHARE_PAGE_TEXT.tooManyPasswords));
        if (!attempt.result) return send(req, reply, passwordAnswer(401, path, SHARE_PAGE_TEXT.wrongPassword));
      }
      return admit(req, reply, host, link, now);
    },
  };
}
