// The cookie a browser gets when it opens a share link. It is not stored: it names the site, the
// link and an expiry, signed with a key of its own (sites/shareTokens.ts shareKeys), so another
// site refuses it and the edge checks it from memory.
import { createHmac, timingSafeEqual } from "node:crypto";
import type { ShareKeys } from "../sites/shareTokens";

/** Host-only (no Domain): sent back to the host that set it and no other. */
export const SHARE_COOKIE = "berth_share";
/** The longest a browser keeps a link's access; shorter when the link expires sooner. */
export const SHARE_MAX_AGE_SECONDS = 7 * 24 * 60 * 60;

function sign(keys: ShareKeys, payload: string): string {
  return createHmac("sha256", keys.cookie).update(payload).digest("base64url");
}

/** `siteId.linkId.expiresSeconds.signature`, and the Max-Age that goes with it. */
export function issueShareCookie(
  keys: ShareKeys,
  siteId: string,
  linkId: string,
  linkExpiresAt: number,
  now = Date.now(),
): { value: string; maxAgeSeconds: number } {
  const expires = Math.min(Math.floor(now / 1000) + SHARE_MAX_AGE_SECONDS, Math.floor(linkExpiresAt / 1000));
  const payload = `${siteId}.${linkId}.${expires}`;
  return { value: `${payload}.${sign(keys, payload)}`, maxAgeSeconds: Math.max(0, expires - Math.floor(now / 1000)) };
}

export function shareCookieHeader(keys: ShareKeys, cookie: { value: string; maxAgeSeconds: number }): string {
  return `${SHARE_COOKIE}=${cookie.value}; Max-Age=${cookie.maxAgeSeconds}; Path=/; HttpOnly; SameSite=Lax${keys.secure ? "; Secure" : ""}`;
}

/**
 * The link a share cookie opens and its expiry (epoch ms) when it is signed by us, for this site,
 * and not expired; undefined otherwise. Whether the link itself still stands is the caller's.
 */
export function checkShareCookie(keys: ShareKeys, value: string, siteId: string, now = Date.now()): { linkId: string; expires: number } | undefined {
  const parts = value.split(".");
  if (parts.length !== 4 || parts[0] !== siteId) return undefined;
  const expires = Number(parts[2]) * 1000;
  if (!/^[0-9]{1,12}$/.test(parts[2]!) || expires <= now) return undefined;
  const expected = Buffer.from(sign(keys, `${parts[0]}.${parts[1]}.${parts[2]}`));
  const given = Buffer.from(parts[3]!);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  return { linkId: parts[1]!, expires };
}

/**
 * Every value of the share cookie in a Cookie header. Usually one, but a sibling site under the
 * same parent domain can toss one with Domain= set, so the caller tries each (as for passes).
 */
export function shareCookiesOf(header: string | undefined): string[] {
  if (!header) return [];
  const values: string[] = [];
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq !== -1 && part.slice(0, eq).trim() === SHARE_COOKIE) values.push(part.slice(eq + 1).trim());
  }
  return values;
}
