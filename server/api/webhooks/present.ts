// Rows → the shapes of common/webhooks.ts. The sealed secret and the lease never leave the server.
import type { WebhookDeliveryResponse, WebhookResponse } from "../../../common/webhooks";
import type { WebhookDelivery, WebhookEndpointWithSite } from "../../db/repositories/webhooks";

export function presentWebhookDelivery(delivery: WebhookDelivery): WebhookDeliveryResponse {
  return {
    id: delivery.id,
    type: delivery.type,
    status: delivery.status,
    attempts: delivery.attempts,
    next_attempt_at: delivery.status === "pending" ? (delivery.next_attempt_at?.toISOString() ?? null) : null,
    last_status_code: delivery.last_status_code,
    last_response_ms: delivery.last_response_ms,
    last_error: delivery.last_error,
    created_at: delivery.created_at.toISOString(),
    delivered_at: delivery.delivered_at?.toISOString() ?? null,
  };
}

export function presentWebhook(endpoint: WebhookEndpointWithSite): WebhookResponse {
  return {
    id: endpoint.id,
    url: endpoint.url,
    site: endpoint.site,
    events: endpoint.events,
    enabled: endpoint.enabled,
    created_at: endpoint.created_at.toISOString(),
    last_delivery: endpoint.last_delivery && presentWebhookDelivery(endpoint.last_delivery),
  };
}
