// Share links' URL tokens, and the keys of the cookie a browser gets when it opens one
// (edge/shareCookies.ts). A token is not stored: it is the link's id with an HMAC of it, so the
// dashboard can show the owner the URL again and the edge refuses a tampered one before any query.
import { createHmac, timingSafeEqual } from "node:crypto";

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
