// Share links' URL tokens and the cookie a browser gets when it opens one. Neither is stored: the
// token is the link's id with an HMAC of it, so Berth can show the owner the URL again and refuse
// a tampered token before any query; the cookie names the site, the link and an expiry, signed,
// so another site refuses it and the edge checks it from memory.
import { createHmac, timingSafeEqual } from "node:crypto";

/** Host-only (no Domain): sent back to the host that set it and no other. */
export const SHARE_COOKIE = "berth_share";
/** The longest a browser keeps a link's access; shorter when the link expires sooner. */
export const SHARE_MAX_AGE_SECONDS = 7 * 24 * 60 * 60;

/** What the API and the edge need to make and check tokens and cookies. */
export interface ShareKeys {
  /** HMAC-SHA256 key of URL tokens, derived from the server secret. */
  token: Buffer;
  /** HMAC-SHA256 key of share cookies: another label, so a token can never pass as a cookie. */
  cookie: Buffer;
  /** Secure attribute: when the app is served over https. */
  secure: boolean;
}

export function shareKeys(secret: string, appUrl: string): ShareKeys {
  return {
    token: createHmac("sha256", secret).update("berth:edge:share-link-token").digest(),
    cookie: createHmac("sha256", secret).update("berth:edge:share-link-cookie").digest(),
    secure: appUrl.startsWith("https:"),
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const PART = /^[A-Za-z0-9_-]{22}$/;
/** 22 base64url characters for 16 bytes, twice, with a dot between. */
const TOKEN_LENGTH = 45;

function tokenMac(keys: ShareKeys, linkId: string): Buffer {
  return createHmac("sha256", keys.token).update(`share:${linkId}`).digest().subarray(0, 16);
}

/** base64url(the id's 16 bytes) "." base64url(the first 16 bytes of its HMAC). */
export function shareToken(keys: ShareKeys, linkId: string): string {
  const id = linkId.toLowerCase();
  if (!UUID.test(id)) throw new Error(`not a link id: ${linkId}`);
  return `${Buffer.from(id.replaceAll("-", ""), "hex").toString("base64url")}.${tokenMac(keys, id).toString("base64url")}`;
}

/** Decodes exactly the canonical spelling of 16 bytes, or nothing. */
function bytesOf(part: string): Buffer | undefined {
  if (!PART.test(part)) return undefined;
  const bytes = Buffer.from(part, "base64url");
  return bytes.length === 16 && bytes.toString("base64url") === part ? bytes : undefined;
}

/** The link id a token names, or undefined when Berth did not make it (tampered, truncated, noise). */
export function linkIdOfToken(keys: ShareKeys, token: string): string | undefined {
  if (token.length !== TOKEN_LENGTH || token[22] !== ".") return undefined;
  const idBytes = bytesOf(token.slice(0, 22));
  const given = bytesOf(token.slice(23));
  if (!idBytes || !given) return undefined;
  const hex = idBytes.toString("hex");
  const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return timingSafeEqual(given, tokenMac(keys, id)) ? id : undefined;
}

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
