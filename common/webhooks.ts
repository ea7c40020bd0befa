// Webhooks: Berth POSTs a signed JSON event to the owner's URL when a deploy succeeds or fails, a
// site is rolled back or deleted. Schemas shared by the server and the dashboard.
//
//   GET    /api/webhooks                                         → WebhookListResponse (newest first)
//   POST   /api/webhooks            CreateWebhookRequest         → 201 CreatedWebhookResponse (the secret, once)
//   PATCH  /api/webhooks/:webhookId UpdateWebhookRequest         → WebhookResponse
//   DELETE /api/webhooks/:webhookId                              → 204 (pending deliveries go with it)
//   GET    /api/webhooks/:webhookId/deliveries                   → WebhookDeliveryListResponse (the last 50)
//   POST   /api/webhooks/:webhookId/deliveries/:deliveryId/redeliver → 202 WebhookDeliveryResponse
//   POST   /api/webhooks/:webhookId/test                         → 202 WebhookDeliveryResponse (a `ping`)
//
// A browser session or an API token with the `full` permission manages them; `read` lists them and
// their deliveries. A token for one site sees and manages only that site's webhooks.
//
// Each delivery is a row written in the same transaction as the change it reports, sent by the
// worker, retried with backoff for up to a day, and signed:
//   Berth-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed by the secret>
import { z } from "zod";

/** The events an endpoint can subscribe to. */
export const WEBHOOK_EVENTS = ["deploy.succeeded", "deploy.failed", "deploy.rolled_back", "site.deleted"] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** What "Send test" sends: not subscribable, always to the endpoint it was asked for. */
export const WEBHOOK_PING = "ping";
export type WebhookDeliveryType = WebhookEvent | typeof WEBHOOK_PING;

export const WEBHOOK_DELIVERY_STATUSES = ["pending", "delivered", "failed"] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** Every secret starts with this, so secret scanners and people can tell what it is. */
export const WEBHOOK_SECRET_PREFIX = "whsec_";
export const WEBHOOK_URL_MAX = 2000;
/** How many deliveries the dashboard and the API list per endpoint, newest first. */
export const WEBHOOK_DELIVERY_LIST_LIMIT = 50;

/** The headers of every delivery. */
export const WEBHOOK_HEADERS = {
  event: "Berth-Event",
  /** The delivery's id: the same on every retry and redelivery, so receivers can drop duplicates. */
  delivery: "Berth-Delivery",
  signature: "Berth-Signature",
  userAgent: "Berth-Webhooks",
} as const;

/**
 * The waits between a failed attempt and the next: 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, then 4 h
 * each time. Quick at first, for a receiver that blinked; sparse later, for one that is down for hours.
 */
export const WEBHOOK_RETRY_DELAYS_MS: readonly number[] = [30_000, 120_000, 600_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000];

/** Retries give up this long after the event (or after a redelivery was asked for). */
export const WEBHOOK_RETRY_WINDOW_MS = 24 * 60 * 60 * 1000;
/** A receiver has this long to answer; then the attempt failed. */
export const WEBHOOK_TIMEOUT_MS = 10_000;

export const WEBHOOK_EVENT_TEXT: Record<WebhookEvent, { label: string; description: string }> = {
  "deploy.succeeded": { label: "Deploy succeeded", description: "A new version is live (a draft: once it is promoted)." },
  "deploy.failed": { label: "Deploy failed", description: "A publish failed; the previous version stays live." },
  "deploy.rolled_back": { label: "Rolled back", description: "An earlier version was made live again." },
  "site.deleted": { label: "Site deleted", description: "A site was marked for deletion." },
};

export const WEBHOOK_TEXT = {
  urlRequired: "Enter the URL Berth should send events to",
  urlInvalid: "Enter a URL such as https://example.com/hooks/berth",
  urlScheme: "The URL must start with https:// or http://",
  urlCredentials: "Leave the user name and password out of the URL; check the signature instead",
  urlTooLong: `The URL must be at most ${WEBHOOK_URL_MAX} characters`,
  eventsRequired: "Choose at least one event",
  privateAddress: (host: string) =>
    `${host} is a private, loopback or reserved address. Webhooks go only to public addresses, so they cannot reach the server's own network.`,
  hostNotFound: (host: string) => `${host} could not be found. Check the URL's host name.`,
  lookupFailed: (host: string) => `${host} could not be looked up right now. Try again in a moment.`,
  nothingToChange: "Send the URL, the events or whether the webhook is enabled",
  notFound: "Webhook not found",
  deliveryNotFound: "Delivery not found",
  disabled: "This webhook is disabled. Enable it to send events to it.",
  inFlight: "This delivery is being sent right now. Try again in a minute.",
  copyOnce: "Copy this signing secret now. You won't be able to see it again.",
  created: "Webhook added",
  createFailed: "Failed to add webhook",
  updated: "Webhook updated",
  updateFailed: "Failed to update webhook",
  deleted: "Webhook deleted",
  deleteFailed: "Failed to delete webhook",
  testQueued: "Test event queued",
  testFailed: "Failed to send test event",
  redeliverQueued: "Redelivery queued",
  redeliverFailed: "Failed to redeliver",
} as const;

/** The URL as Berth will call it: http(s), no credentials, no fragment. Addresses are checked by the server. */
const WebhookUrl = z
  .string({ error: WEBHOOK_TEXT.urlRequired })
  .trim()
  .min(1, WEBHOOK_TEXT.urlRequired)
  .max(WEBHOOK_URL_MAX, WEBHOOK_TEXT.urlTooLong)
  .transform((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: "custom", message: WEBHOOK_TEXT.urlInvalid });
      return z.NEVER;
    }
    if (url.protocol !== "https:" && url.protocol !== "http:") {
      ctx.addIssue({ code: "custom", message: WEBHOOK_TEXT.urlScheme });
      return z.NEVER;
    }
    if (url.username !== "" || url.password !== "") {
      ctx.addIssue({ code: "custom", message: WEBHOOK_TEXT.urlCredentials });
      return z.NEVER;
    }
    if (url.hostname === "") {
      ctx.addIssue({ code: "custom", message: WEBHOOK_TEXT.urlInvalid });
      return z.NEVER;
    }
    // A fragment never reaches the server; the URL's parsed form is what is stored and shown.
    url.hash = "";
    return url.toString();
  });

const WebhookEvents = z
  .array(z.enum(WEBHOOK_EVENTS, { error: WEBHOOK_TEXT.eventsRequired }), { error: WEBHOOK_TEXT.eventsRequired })
  .min(1, WEBHOOK_TEXT.eventsRequired)
  // Stored once each, in the order of WEBHOOK_EVENTS, however the request listed them.
  .transform((events) => WEBHOOK_EVENTS.filter((event) => events.includes(event)));

export const CreateWebhookRequest = z.object({
  url: WebhookUrl,
  /** null: every site of the owner's, now and later. */
  siteId: z.string().min(1).nullable().default(null),
  events: WebhookEvents,
});
export type CreateWebhookRequest = z.input<typeof CreateWebhookRequest>;

export const UpdateWebhookRequest = z
  .object({
    url: WebhookUrl.optional(),
    events: WebhookEvents.optional(),
    enabled: z.boolean().optional(),
  })
  .refine((body) => body.url !== undefined || body.events !== undefined || body.enabled !== undefined, WEBHOOK_TEXT.nothingToChange);
export type UpdateWebhookRequest = z.input<typeof UpdateWebhookRequest>;

export const WebhookDeliveryResponse = z.object({
  id: z.string().describe("The event's id: the Berth-Delivery header and the payload's `id`."),
  type: z.enum([...WEBHOOK_EVENTS, WEBHOOK_PING]),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int(),
  next_attempt_at: z.string().nullable().describe("When the next attempt is due, while pending."),
  last_status_code: z.number().int().nullable(),
  last_response_ms: z.number().int().nullable(),
  last_error: z.string().nullable(),
  created_at: z.string(),
  delivered_at: z.string().nullable(),
});
export type WebhookDeliveryResponse = z.infer<typeof WebhookDeliveryResponse>;

export const WebhookResponse = z.object({
  id: z.string(),
  url: z.string(),
  site: z
    .object({ id: z.string(), name: z.string(), subdomain: z.string() })
    .nullable()
    .describe("The one site whose events it receives, or null for all the owner's sites."),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  enabled: z.boolean(),
  created_at: z.string(),
  last_delivery: WebhookDeliveryResponse.nullable().describe("The newest delivery, or null before the first."),
});
export type WebhookResponse = z.infer<typeof WebhookResponse>;

export const WebhookListResponse = z.object({ webhooks: z.array(WebhookResponse) });
export type WebhookListResponse = z.infer<typeof WebhookListResponse>;

export const CreatedWebhookResponse = z.object({
  webhook: WebhookResponse,
  secret: z.string().describe("The signing secret. Shown once."),
});
export type CreatedWebhookResponse = z.infer<typeof CreatedWebhookResponse>;

export const WebhookDeliveryListResponse = z.object({ deliveries: z.array(WebhookDeliveryResponse) });
export type WebhookDeliveryListResponse = z.infer<typeof WebhookDeliveryListResponse>;

/** The JSON body of every site event. */
export interface WebhookPayload {
  id: string;
  type: WebhookEvent;
  created_at: string;
  site: { id: string; name: string; subdomain: string; url: string };
  deployment?: { id: string; version: number; url: string | null; status: string; error: string | null };
}

/** The JSON body of a test event. */
export interface WebhookPingPayload {
  id: string;
  type: typeof WEBHOOK_PING;
  created_at: string;
  webhook: { id: string; url: string; events: WebhookEvent[] };
}
