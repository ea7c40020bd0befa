// Enqueuing a site event for the owner's webhooks: one delivery row per enabled endpoint that wants
// it, inserted with the caller's transaction (`tx`), so the event exists exactly when the change it
// reports was committed: a crash after the commit loses none, a rollback leaves none. The worker
// sends them (deliverWebhooks.ts). Any service that publishes, rolls back or deletes calls this.
import { randomUUID } from "node:crypto";
import { WEBHOOK_RETRY_WINDOW_MS, type WebhookEvent, type WebhookPayload } from "../../common/webhooks";
import type { Executor } from "../db/client";
import type { Deployment } from "../db/repositories/deployments";
import { endpointsForEvent, insertDeliveries } from "../db/repositories/webhooks";
import type { SiteUrls } from "../sites/urls";

export interface WebhookEventInput {
  userId: string;
  siteId: string;
  type: WebhookEvent;
  /** The payload's fields besides id, type and created_at. */
  data: Pick<WebhookPayload, "site" | "deployment">;
}

/** Inserts the event's deliveries in `tx`; resolves to how many endpoints get it. */
export async function enqueueWebhookEvent(tx: Executor, event: WebhookEventInput, now = new Date()): Promise<number> {
  const endpoints = await endpointsForEvent(tx, event.userId, event.siteId, event.type);
  const retryUntil = new Date(now.getTime() + WEBHOOK_RETRY_WINDOW_MS);
  const rows = endpoints.map((endpoint) => {
    // Each endpoint's copy has its own id: the receiver's key for dropping a duplicate.
    const id = randomUUID();
    const payload: WebhookPayload = { id, type: event.type, created_at: now.toISOString(), ...event.data };
    return { id, endpoint_id: endpoint.id, type: event.type, payload, next_attempt_at: now, retry_until: retryUntil, created_at: now };
  });
  await insertDeliveries(tx, rows);
  return rows.length;
}

/** The event of `type` about `site` (and the deployment it concerns), in the payload's shape. */
export function siteEvent(
  urls: SiteUrls,
  type: WebhookEvent,
  site: { id: string; user_id: string; name: string; subdomain: string },
  deployment?: Pick<Deployment, "id" | "version" | "deployment_url" | "status" | "error">,
): WebhookEventInput {
  return {
    userId: site.user_id,
    siteId: site.id,
    type,
    data: {
      site: { id: site.id, name: site.name, subdomain: site.subdomain, url: urls.site(site.subdomain) },
      ...(deployment && {
        deployment: {
          id: deployment.id,
          version: deployment.version,
          url: deployment.status === "success" ? deployment.deployment_url : null,
          status: deployment.status,
          error: deployment.error,
        },
      }),
    },
  };
}
