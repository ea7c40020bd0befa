// The passwords of protected sites and share links (Pro): scrypt, stored as one string that
// names its parameters, so a stored hash stays checkable if the defaults change. The dashboard
// hashes them when they are set; the edge checks them when a visitor enters one.
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";

const SCRYPT = { N: 16384, r: 8, p: 1 } as const;
const KEY_BYTES = 32;

function derive(password: string, salt: Buffer, params: { N: number; r: number; p: number }): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize("NFKC"), salt, KEY_BYTES, { ...params, maxmem: 128 * params.N * params.r * 2 }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** `scrypt$N$r$p$salt$hash`, salt and hash in base64url. */
export async function hashSitePassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, SCRYPT);
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString("base64url")}$${key.toString("base64url")}`;
}

/** Constant-time comparison of the derived key; a malformed stored hash never matches. */
export async function verifySitePassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return false;
  const [N, r, p] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  if (![N, r, p].every((n) => Number.isInteger(n) && n > 0) || N > 1 << 20) return false;
  const expected = Buffer.from(parts[5]!, "base64url");
  const key = await derive(password, Buffer.from(parts[4]!, "base64url"), {
    N,
    r,
    p,
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}
