// RFC 6238 time-based one-time passwords, as an authenticator app computes them, so API and
// browser tests can answer better-auth's two-factor challenge from the secret in the otpauth://
// URI it hands out when two-factor sign-in is enabled.
import { createHmac } from "node:crypto";

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** RFC 4648 base32, without padding, upper or lower case. */
export function base32Decode(input: string): Buffer {
  const clean = input.replace(/=+$/, "").toUpperCase();
  const bytes: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const char of clean) {
    const value = BASE32.indexOf(char);
    if (value < 0) throw new Error(`Not base32: ${JSON.stringify(char)}`);
    buffer = (buffer << 5) | value;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((buffer >>> bits) & 0xff);
    }
  }
  return Buffer.from(bytes);
}

/** RFC 4226 HOTP: HMAC-SHA-1 of the counter, dynamically truncated to `digits` digits. */
export function hotp(key: Buffer, counter: number, digits = 6): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac("sha1", key).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const code = (mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits;
  return String(code).padStart(digits, "0");
}

/** RFC 6238 TOTP for a base32 secret at `time` (milliseconds), in steps of `period` seconds. */
export function totp(secret: string, options: { time?: number; period?: number; digits?: number } = {}): string {
  const period = options.period ?? 30;
  return hotp(base32Decode(secret), Math.floor((options.time ?? Date.now()) / 1000 / period), options.digits ?? 6);
}

/** The secret, period and digits of an otpauth://totp/… URI. */
export function parseTotpUri(uri: string): { secret: string; period: number; digits: number; issuer: string | null; label: string } {
  const url = new URL(uri);
  if (url.protocol !== "otpauth:" || url.host !== "totp") throw new Error(`Not a TOTP URI: ${uri}`);
  const secret = url.searchParams.get("secret");
  if (!secret) throw new Error(`No secret in ${uri}`);
  return {
    secret,
    period: Number(url.searchParams.get("period") ?? 30),
    digits: Number(url.searchParams.get("digits") ?? 6),
    issuer: url.searchParams.get("issuer"),
    label: decodeURIComponent(url.pathname.replace(/^\//, "")),
  };
}

/** The code an authenticator app shows now for this otpauth:// URI. */
export function totpFromUri(uri: string, time = Date.now()): string {
  const { secret, period, digits } = parseTotpUri(uri);
  return totp(secret, { time, period, digits });
}
