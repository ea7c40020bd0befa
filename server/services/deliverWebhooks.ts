// The worker's webhook sender. Each call claims the deliveries due at `now` (a lease, as custom
// domains' steps are claimed: one UPDATE … SKIP LOCKED, no transaction held over the request),
// sends each once and writes the outcome only while its lease holds. A 2xx is delivered, for good;
// anything else is tried again on the schedule (webhooks/schedule.ts) until its retry window is
// over, then failed. A crash between the request and the write sends it again after the lease:
// delivery is at least once, and Berth-Delivery lets receivers drop the repeat.
import { randomUUID } from "node:crypto";
import { WEBHOOK_HEADERS } from "../../common/webhooks";
import type { AppContext } from "../context";
import type { DnsLookup } from "../dns";
import { claimDueDeliveries, recordDeliveryAttempt, type ClaimedDelivery, type DeliveryOutcome } from "../db/repositories/webhooks";
import { webhookBody } from "../webhooks/payload";
import { nextAttemptAt } from "../webhooks/schedule";
import { openSecret } from "../webhooks/secretBox";
import { sendWebhookRequest, type SendResult } from "../webhooks/send";
import { signWebhook } from "../webhooks/signature";
import { resolveWebhookTarget } from "../webhooks/target";

export type DeliverContext = Pick<AppContext, "db" | "env" | "log" | "webhookSecretKey">;

/** A claimed delivery is this worker's for this long: far more than the 10 s an attempt may take. */
export const WEBHOOK_LEASE_MS = 60_000;
/** Deliveries sent at once per call; the rest wait for the next call. */
const BATCH = 10;

/** Why a delivery failed at once, without retries: no later attempt could do better. */
const UNREADABLE_SECRET = "The signing secret cannot be read (the server's secret changed). Delete this webhook and add it again.";

/** Sends the deliveries due at `now`, up to BATCH of them. Resolves to how many were claimed. */
export async function deliverDueWebhooks(ctx: DeliverContext, dns: DnsLookup, now = new Date()): Promise<number> {
  const leaseToken = randomUUID();
  const claimed = await claimDueDeliveries(ctx.db, now, leaseToken, new Date(now.getTime() + WEBHOOK_LEASE_MS), BATCH);
  await Promise.all(
    claimed.map((delivery) =>
      deliver(ctx, dns, delivery, now).catch((error: unknown) => ctx.log.error({ err: error, deliveryId: delivery.id }, "webhook delivery failed")),
    ),
  );
  return claimed.length;
}

async function deliver(ctx: DeliverContext, dns: DnsLookup, delivery: ClaimedDelivery, now: Date): Promise<void> {
  const attempts = delivery.attempts + 1;
  let secret: string;
  try {
    secret = openSecret(ctx.webhookSecretKey, delivery.secret_encrypted);
  } catch {
    await record(ctx, delivery, { ...ended(attempts, "failed"), last_error: UNREADABLE_SECRET });
    return;
  }
  const result = await attempt(ctx, dns, delivery, secret);
  if (result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300) {
    await record(ctx, delivery, { ...ended(attempts, "delivered"), ...measured(result), delivered_at: now });
    return;
  }
  const next = nextAttemptAt(attempts, now, delivery.retry_until);
  await record(
    ctx,
    delivery,
    next ? { ...ended(attempts, "pending"), ...measured(result), next_attempt_at: next } : { ...ended(attempts, "failed"), ...measured(result) },
  );
}

/** One request: the URL's host checked again (it may resolve elsewhere now), then the signed POST to the checked address. */
async function attempt(ctx: DeliverContext, dns: DnsLookup, delivery: ClaimedDelivery, secret: string): Promise<SendResult> {
  const target = await resolveWebhookTarget(delivery.url, dns, ctx.env.webhookAllowPrivate);
  if (!target.ok) return { statusCode: null, ms: 0, error: target.message };
  const body = webhookBody(delivery.payload);
  const headers = {
    "content-type": "application/json",
    "user-agent": WEBHOOK_HEADERS.userAgent,
    [WEBHOOK_HEADERS.event.toLowerCase()]: delivery.type,
    [WEBHOOK_HEADERS.delivery.toLowerCase()]: delivery.id,
    // The receiver's clock judges it, so it is the real time of this attempt.
    [WEBHOOK_HEADERS.signature.toLowerCase()]: signWebhook(secret, body, Math.floor(Date.now() / 1000)),
  };
  const result = await sendWebhookRequest(target.target, headers, body);
  if (result.statusCode !== null && result.statusCode >= 300 && result.statusCode < 400) return { ...result, error: "Redirects are not followed" };
  return result;
}

const ended = (attempts: number, status: DeliveryOutcome["status"]): DeliveryOutcome => ({
  status,
  attempts,
  next_attempt_at: null,
  last_status_code: null,
  last_response_ms: null,
  last_error: null,
  delivered_at: null,
});

const measured = (result: SendResult) => ({ last_status_code: result.statusCode, last_response_ms: result.ms, last_error: result.error });

async function record(ctx: DeliverContext, delivery: ClaimedDelivery, outcome: DeliveryOutcome): Promise<void> {
  const written = await recordDeliveryAttempt(ctx.db, delivery.id, delivery.lease_token, outcome);
  if (!written) ctx.log.info({ deliveryId: delivery.id }, "webhook delivery changed while it was sent; its outcome is dropped");
}
