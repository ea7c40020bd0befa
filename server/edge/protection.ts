// Password-protected sites (Pro): the signed cookie a visitor gets for one host after entering the
// password (whose hash is auth/sitePasswords.ts's). The cookie names the site, the password's
// version and its expiry, so another site refuses it and a new password ends it.
import { createHmac, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

/** Host-only (no Domain), so it is sent back to the host that set it and no other. */
export const PASS_COOKIE = "berth_site_pass";
export const PASS_MAX_AGE_SECONDS = 7 * 24 * 60 * 60;
/** The form posts here; the prefix is reserved on protected hosts only. */
export const PASSWORD_PATH = "/.berth/password";
export const RESERVED_PREFIX = "/.berth/";
export const MAX_FORM_BYTES = 4 * 1024;

/** What the edge needs to issue and check pass cookies. */
export interface PassKeys {
  /** HMAC-SHA256 key, derived from the server secret (never the secret itself). */
  key: Buffer;
  /** Secure attribute: when the app is served over https. */
  secure: boolean;
}

export function passKeys(secret: string, appUrl: string): PassKeys {
  return {
    key: createHmac("sha256", secret).update("berth:edge:site-password-cookie").digest(),
    secure: appUrl.startsWith("https:"),
  };
}

function sign(keys: PassKeys, payload: string): string {
  return createHmac("sha256", keys.key).update(payload).digest("base64url");
}

/** `siteId.version.expiresSeconds.signature` */
export function issuePass(keys: PassKeys, siteId: string, version: number, now = Date.now()): string {
  const payload = `${siteId}.${version}.${Math.floor(now / 1000) + PASS_MAX_AGE_SECONDS}`;
  return `${payload}.${sign(keys, payload)}`;
}

export function passCookieHeader(keys: PassKeys, value: string): string {
  return `${PASS_COOKIE}=${value}; Max-Age=${PASS_MAX_AGE_SECONDS}; Path=/; HttpOnly; SameSite=Lax${keys.secure ? "; Secure" : ""}`;
}

/** The expiry (epoch ms) of a pass for this site and password version, or 0 when it is not one. */
export function checkPass(keys: PassKeys, value: string, siteId: string, version: number, now = Date.now()): number {
  const parts = value.split(".");
  if (parts.length !== 4 || parts[0] !== siteId || parts[1] !== String(version)) return 0;
  const expires = Number(parts[2]) * 1000;
  if (!Number.isSafeInteger(expires) || expires <= now) return 0;
  const expected = Buffer.from(sign(keys, `${parts[0]}.${parts[1]}.${parts[2]}`));
  const given = Buffer.from(parts[3]!);
  return given.length === expected.length && timingSafeEqual(given, expected) ? expires : 0;
}

/**
 * Every value of the pass cookie in a Cookie header. Usually one; but another site under the same
 * parent domain can toss a cookie of the same name with Domain= set, so the caller must try each
 * rather than trust the first.
 */
export function passesFromCookies(header: string | undefined): string[] {
  if (!header) return [];
  const values: string[] = [];
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq !== -1 && part.slice(0, eq).trim() === PASS_COOKIE) values.push(part.slice(eq + 1).trim());
  }
  return values;
}

/** Longer than any real page's path and query; such a `next` (encoded) sends the visitor home. */
export const NEXT_MAX_LENGTH = 2048;

/**
 * Runs of what may not stand as it is in a URL's path and query (RFC 3986): anything but
 * unreserved characters, sub-delimiters, ":", "@", "/", "?" and a "%" that starts a whole escape.
 */
const UNSAFE_RUN = /%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~!$&'()*+,;=:@/?%]+/gu;

/** Percent-encodes the UTF-8 bytes of a run (a lone surrogate becomes U+FFFD's bytes). */
const escapeRun = (run: string) => Array.from(Buffer.from(run, "utf8"), (byte) => `%${byte.toString(16).toUpperCase().padStart(2, "0")}`).join("");

/**
 * Where to send the visitor after the password: a path on this host. It goes out in a Location
 * header and in the form's hidden field, so it is made of visible ASCII: every character a URL
 * path or query may not hold is percent-encoded as UTF-8 (a raw one would be a 500 in a header
 * beyond Latin-1, or raw bytes within it). Anything a browser could read as another origin
 * (`//evil`, `/\evil`, a scheme), and anything absurdly long, becomes "/".
 */
export function safeNext(next: string | null | undefined): string {
  if (!next || next[0] !== "/" || next[1] === "/" || next[1] === "\\") return "/";
  const encoded = next.replace(UNSAFE_RUN, escapeRun);
  return encoded.length <= NEXT_MAX_LENGTH ? encoded : "/";
}

/**
 * The client's address: the socket's, or behind a trusted proxy the last address in
 * X-Forwarded-For (the one the proxy itself appended, which a client cannot forge).
 */
export function clientAddress(req: IncomingMessage, trustProxy: boolean): string {
  const socket = req.socket.remoteAddress ?? "unknown";
  if (!trustProxy) return socket;
  const forwarded = req.headers["x-forwarded-for"];
  const field = Array.isArray(forwarded) ? forwarded.join(",") : forwarded;
  const last = field?.split(",").pop()?.trim();
  return last || socket;
}

/** Reads an urlencoded body up to `limit` bytes; undefined when it is longer. */
export async function readForm(req: IncomingMessage, limit = MAX_FORM_BYTES): Promise<URLSearchParams | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  // Past the limit the rest is read and dropped, so the answer can still be sent on this socket.
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size <= limit) chunks.push(chunk as Buffer);
  }
  return size > limit ? undefined : new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}
