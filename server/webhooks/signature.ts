// The Berth-Signature header: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, keyed by the
// endpoint's secret. The timestamp is signed with the body so a receiver can refuse an old
// request replayed later; the header's form is the one Stripe made familiar, so receivers' code
// (and its pitfalls: compare in constant time, use the raw body) carries over.
import { createHmac, timingSafeEqual } from "node:crypto";

/** How old a signature a receiver should still accept, in seconds (what the docs advise). */
export const SIGNATURE_TOLERANCE_SECONDS = 5 * 60;

function mac(secret: string, timestamp: number, body: string): string {
  return createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
}

/** The header's value for `body` sent at `timestamp` (unix seconds). */
export function signWebhook(secret: string, body: string, timestamp: number): string {
  return `t=${timestamp},v1=${mac(secret, timestamp, body)}`;
}

/**
 * Whether `header` signs `body` with `secret`, within `toleranceSeconds` of `now`: what a receiver
 * does (the docs page shows the same steps). Any v1 value may match, so a sender could add a
 * second signature while a secret is being replaced.
 */
export function verifyWebhookSignature(
  secret: string,
  body: string,
  header: string,
  now = Date.now(),
  toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS,
): boolean {
  const parts = header.split(",").map((part) => part.trim().split("="));
  const timestamps = parts.filter(([key]) => key === "t").map(([, value]) => value ?? "");
  if (timestamps.length !== 1 || !/^\d{1,12}$/.test(timestamps[0]!)) return false;
  const timestamp = Number(timestamps[0]);
  if (Math.abs(now / 1000 - timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(mac(secret, timestamp, body), "hex");
  return parts.some(([key, value]) => {
    if (key !== "v1" || value === undefined || !/^[0-9a-f]{64}$/.test(value)) return false;
    return timingSafeEqual(Buffer.from(value, "hex"), expected);
  });
}
