// How webhooks read in the dashboard: a delivery's status and outcome, a webhook's sites and
// events, and the add-webhook form's fields turned into the server's own request.
import { z } from "zod";
import { timeAgo } from "../../../common/format";
import {
  CreateWebhookRequest,
  WEBHOOK_EVENT_TEXT,
  WEBHOOK_EVENTS,
  type WebhookDeliveryResponse,
  type WebhookDeliveryType,
  type WebhookEvent,
  type WebhookResponse,
} from "../../../common/webhooks";

export type DeliveryTone = "success" | "warning" | "danger" | "muted";

/** "Delivered", "Retrying", "Queued" or "Failed", with the tone its badge takes. */
export function deliveryStatus(delivery: Pick<WebhookDeliveryResponse, "status" | "attempts">): { label: string; tone: DeliveryTone } {
  if (delivery.status === "delivered") return { label: "Delivered", tone: "success" };
  if (delivery.status === "failed") return { label: "Failed", tone: "danger" };
  return delivery.attempts === 0 ? { label: "Queued", tone: "muted" } : { label: "Retrying", tone: "warning" };
}

/** "HTTP 200 · 84 ms", "Connection refused · 3 ms", or "Not sent yet". */
export function deliveryOutcome(delivery: Pick<WebhookDeliveryResponse, "last_status_code" | "last_response_ms" | "last_error">): string {
  const what = delivery.last_status_code !== null ? `HTTP ${delivery.last_status_code}` : delivery.last_error;
  if (!what) return "Not sent yet";
  return delivery.last_response_ms === null ? what : `${what} · ${delivery.last_response_ms} ms`;
}

/** "Next try in 2 minutes" while a failed delivery waits for its next attempt. */
export function nextTryLabel(delivery: Pick<WebhookDeliveryResponse, "status" | "attempts" | "next_attempt_at">, now: Date): string | null {
  if (delivery.status !== "pending" || delivery.attempts === 0 || !delivery.next_attempt_at) return null;
  const at = new Date(delivery.next_attempt_at);
  if (at.getTime() <= now.getTime()) return "Trying again now";
  // The span from now to then, as timeAgo words a span: "2 minutes ago" → "in 2 minutes".
  const span = timeAgo(now, at);
  return span === "just now" ? "Next try in a few seconds" : `Next try in ${span.replace(/ ago$/, "")}`;
}

/** An event's name as the dashboard shows it; "Test" for a ping. */
export function eventLabel(type: WebhookDeliveryType): string {
  return type === "ping" ? "Test" : WEBHOOK_EVENT_TEXT[type].label;
}

/** "All sites", or the one site's name. */
export function webhookScopeLabel(webhook: Pick<WebhookResponse, "site">): string {
  return webhook.site ? webhook.site.name : "All sites";
}

/** The webhooks a site's page lists: its own, and those for all sites. */
export function webhooksForSite(webhooks: WebhookResponse[], siteId: string): WebhookResponse[] {
  return webhooks.filter((webhook) => webhook.site === null || webhook.site.id === siteId);
}

/** The site select's value for "all my sites"; any other value is a site's id. */
export const ALL_SITES = "";

export interface NewWebhookFields {
  url: string;
  /** ALL_SITES, or the id of the one site whose events it receives. */
  scope: string;
  events: string[];
}

export type NewWebhookField = keyof NewWebhookFields;

/** A field of the server's request and the form field its message shows under. */
export const WEBHOOK_REQUEST_FIELD: Partial<Record<string, NewWebhookField>> = { url: "url", siteId: "scope", events: "events" };

/** The add-webhook form: its fields in, the server's own request out (its rules, its messages). */
export const NewWebhookForm = z
  .object({
    url: z.string(),
    scope: z.string(),
    // Several checkboxes under one name: react-hook-form reads the ticked values as an array.
    events: z.array(z.string()),
  })
  .transform((fields, ctx) => {
    const request = CreateWebhookRequest.safeParse({
      url: fields.url,
      siteId: fields.scope === ALL_SITES ? null : fields.scope,
      events: fields.events,
    });
    if (request.success) return request.data;
    for (const issue of request.error.issues) {
      const field = WEBHOOK_REQUEST_FIELD[String(issue.path[0])] ?? "url";
      ctx.addIssue({ code: "custom", path: [field], message: issue.message });
    }
    return z.NEVER;
  });
export type NewWebhookRequest = z.output<typeof NewWebhookForm>;

/** Every event ticked: what most receivers want, and the form's default. */
export const DEFAULT_EVENTS: WebhookEvent[] = [...WEBHOOK_EVENTS];
