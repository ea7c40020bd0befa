// Webhooks, managed by their owner: add (the signing secret is handed out once), change, disable,
// delete, list deliveries, send one again, send a test. A one-site API token sees and manages only
// the webhooks of its site (`scope.siteId`); everything else is the owner's, and another user's
// webhook is the same 404 as a missing one.
import { randomBytes, randomUUID } from "node:crypto";
import type { z } from "zod";
import { API_TOKEN_TEXT } from "../../common/apiTokens";
import {
  WEBHOOK_DELIVERY_LIST_LIMIT,
  WEBHOOK_PING,
  WEBHOOK_RETRY_WINDOW_MS,
  WEBHOOK_SECRET_PREFIX,
  WEBHOOK_TEXT,
  type CreateWebhookRequest,
  type UpdateWebhookRequest,
  type WebhookPingPayload,
} from "../../common/webhooks";
import type { AppContext } from "../context";
import { createDnsLookup } from "../dns";
import {
  countWebhookEndpointsForUser,
  deleteWebhookEndpointForUser,
  failPendingDeliveries,
  getWebhookEndpointForUser,
  insertDeliveries,
  insertWebhookEndpoint,
  listDeliveriesForEndpoint,
  listWebhookEndpointsForUser,
  requeueDelivery,
  updateWebhookEndpointForUser,
  type WebhookDelivery,
  type WebhookEndpointWithSite,
} from "../db/repositories/webhooks";
import { AppError } from "../errors";
import { resolveWebhookTarget } from "../webhooks/target";
import { sealSecret } from "../webhooks/secretBox";
import { requireRoom } from "./accountCaps";
import { requireSiteForChange, UUID } from "./siteAccess";

type WebhookContext = Pick<AppContext, "db" | "env" | "webhookSecretKey">;

/** Whose webhooks a request reaches: the user's, and only one site's for a one-site API token. */
export interface WebhookScope {
  userId: string;
  /** The one site of the request's API token; null for a session or an all-sites token. */
  siteId: string | null;
}

/** Why the pending deliveries of a disabled webhook ended. */
export const DISABLED_ERROR = "Webhook disabled";

const notFound = () => new AppError("webhook_not_found", 404, WEBHOOK_TEXT.notFound);

/** The secret: the recognisable prefix and 32 random bytes (256 bits), base64url. */
export function generateWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(32).toString("base64url");
}

async function requireEndpoint(ctx: WebhookContext, scope: WebhookScope, endpointId: string): Promise<WebhookEndpointWithSite> {
  const endpoint = UUID.test(endpointId) ? await getWebhookEndpointForUser(ctx.db, scope.userId, endpointId, scope.siteId) : undefined;
  if (!endpoint) throw notFound();
  return endpoint;
}

/** Refuses a URL whose host cannot be found or is not public (unless the operator allows it), in words for the form. */
async function requireReachableUrl(ctx: WebhookContext, url: string): Promise<void> {
  const result = await resolveWebhookTarget(url, createDnsLookup(ctx.env.dnsServers), ctx.env.webhookAllowPrivate);
  if (!result.ok) throw new AppError(result.code, 400, result.message, { url: result.message });
}

export async function listWebhooks(ctx: WebhookContext, scope: WebhookScope): Promise<WebhookEndpointWithSite[]> {
  return listWebhookEndpointsForUser(ctx.db, scope.userId, scope.siteId);
}

/**
 * Adds a webhook for all the owner's sites or one (not a deleted one: it can only be restored) and
 * returns it with its signing secret, which is never shown again.
 */
export async function createWebhook(
  ctx: WebhookContext,
  scope: WebhookScope,
  request: z.output<typeof CreateWebhookRequest>,
): Promise<{ endpoint: WebhookEndpointWithSite; secret: string }> {
  if (scope.siteId !== null && request.siteId === null) throw new AppError("token_out_of_scope", 403, API_TOKEN_TEXT.outOfScope);
  if (scope.siteId !== null && request.siteId !== scope.siteId) throw new AppError("site_not_found", 404, "Site not found");
  const site = request.siteId === null ? null : await requireSiteForChange(ctx.db, scope.userId, request.siteId);
  await requireReachableUrl(ctx, request.url);
  const secret = generateWebhookSecret();
  const endpoint = await ctx.db.transaction(async (tx) => {
    await requireRoom(tx, ctx.env.caps, "webhooksPerAccount", scope.userId, (db) => countWebhookEndpointsForUser(db, scope.userId));
    return insertWebhookEndpoint(tx, {
      user_id: scope.userId,
      site_id: site?.id ?? null,
      url: request.url,
      events: request.events,
      secret_encrypted: sealSecret(ctx.webhookSecretKey, secret),
    });
  });
  return { endpoint: { ...endpoint, site: site && { id: site.id, name: site.name, subdomain: site.subdomain }, last_delivery: null }, secret };
}

/** Changes the URL, the events or whether it is enabled. Disabling ends its pending deliveries, in the same transaction. */
export async function updateWebhook(
  ctx: WebhookContext,
  scope: WebhookScope,
  endpointId: string,
  request: z.output<typeof UpdateWebhookRequest>,
  now = new Date(),
): Promise<WebhookEndpointWithSite> {
  const endpoint = await requireEndpoint(ctx, scope, endpointId);
  if (request.url !== undefined && request.url !== endpoint.url) await requireReachableUrl(ctx, request.url);
  const changes = { url: request.url, events: request.events, enabled: request.enabled };
  const updated = await ctx.db.transaction(async (tx) => {
    const row = await updateWebhookEndpointForUser(tx, scope.userId, endpoint.id, changes, now);
    if (row && endpoint.enabled && !row.enabled) await failPendingDeliveries(tx, row.id, DISABLED_ERROR);
    return row;
  });
  if (!updated) throw notFound();
  return (await getWebhookEndpointForUser(ctx.db, scope.userId, endpoint.id, scope.siteId)) ?? { ...endpoint, ...updated };
}

/** Deletes the webhook: its pending deliveries go with it, and a send under way records nothing. */
export async function deleteWebhook(ctx: WebhookContext, scope: WebhookScope, endpointId: string): Promise<void> {
  const endpoint = await requireEndpoint(ctx, scope, endpointId);
  if (!(await deleteWebhookEndpointForUser(ctx.db, scope.userId, endpoint.id))) throw notFound();
}

export async function listWebhookDeliveries(ctx: WebhookContext, scope: WebhookScope, endpointId: string): Promise<WebhookDelivery[]> {
  const endpoint = await requireEndpoint(ctx, scope, endpointId);
  return listDeliveriesForEndpoint(ctx.db, endpoint.id, WEBHOOK_DELIVERY_LIST_LIMIT);
}

function requireEnabled(endpoint: WebhookEndpointWithSite): void {
  if (!endpoint.enabled) throw new AppError("webhook_disabled", 409, WEBHOOK_TEXT.disabled);
}

/**
 * Sends a delivery again, with the same id (receivers drop it if they already have it), due at
 * once and retried for another day. Refused while a worker is sending it, so one send at a time holds.
 */
export async function redeliverWebhook(
  ctx: WebhookContext,
  scope: WebhookScope,
  endpointId: string,
  deliveryId: string,
  now = new Date(),
): Promise<WebhookDelivery> {
  const endpoint = await requireEndpoint(ctx, scope, endpointId);
  const missing = () => new AppError("delivery_not_found", 404, WEBHOOK_TEXT.deliveryNotFound);
  if (!UUID.test(deliveryId)) throw missing();
  requireEnabled(endpoint);
  const requeued = await requeueDelivery(ctx.db, endpoint.id, deliveryId, now, new Date(now.getTime() + WEBHOOK_RETRY_WINDOW_MS));
  if (requeued === "in_flight") throw new AppError("delivery_in_flight", 409, WEBHOOK_TEXT.inFlight);
  if (!requeued) throw missing();
  return requeued;
}

/** Queues a `ping` to the webhook, sent by the worker like any event. */
export async function sendTestWebhook(ctx: WebhookContext, scope: WebhookScope, endpointId: string, now = new Date()): Promise<WebhookDelivery> {
  const endpoint = await requireEndpoint(ctx, scope, endpointId);
  requireEnabled(endpoint);
  const id = randomUUID();
  const payload: WebhookPingPayload = {
    id,
    type: WEBHOOK_PING,
    created_at: now.toISOString(),
    webhook: { id: endpoint.id, url: endpoint.url, events: endpoint.events },
  };
  const [delivery] = await insertDeliveries(ctx.db, [
    {
      id,
      endpoint_id: endpoint.id,
      type: WEBHOOK_PING,
      payload,
      next_attempt_at: now,
      retry_until: new Date(now.getTime() + WEBHOOK_RETRY_WINDOW_MS),
      created_at: now,
    },
  ]);
  return delivery!;
}
