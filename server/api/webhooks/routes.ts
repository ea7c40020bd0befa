// Webhooks. A session or a `full` API token manages them, a `read` token lists them and their
// deliveries; a one-site token reaches only its site's webhooks (the service keeps to
// request.apiToken's site, so the routes declare `scopesTokenSite`).
import type { FastifyInstance, FastifyRequest } from "fastify";
import {
  CreatedWebhookResponse,
  CreateWebhookRequest,
  UpdateWebhookRequest,
  WebhookDeliveryListResponse,
  WebhookDeliveryResponse,
  WebhookListResponse,
  WebhookResponse,
} from "../../../common/webhooks";
import type { RouteDoc } from "../openapi/routeDoc";
import type { AppContext } from "../../context";
import {
  createWebhook,
  deleteWebhook,
  listWebhookDeliveries,
  listWebhooks,
  redeliverWebhook,
  sendTestWebhook,
  updateWebhook,
  type WebhookScope,
} from "../../services/manageWebhooks";
import { routeGuards } from "../routeGuards";
import { parseBody } from "../validate";
import { presentWebhook, presentWebhookDelivery } from "./present";

type WebhookParams = { Params: { webhookId: string } };
type DeliveryParams = { Params: { webhookId: string; deliveryId: string } };

const scopeOf = (request: FastifyRequest): WebhookScope => ({ userId: request.user.id, siteId: request.apiToken?.site_id ?? null });

export async function webhookRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const guard = routeGuards(ctx);
  const reads = (doc: RouteDoc) => ({ preHandler: guard.signedIn, config: { token: "read", scopesTokenSite: true, doc } }) as const;
  const writes = (doc: RouteDoc) => ({ preHandler: guard.signedIn, config: { token: "full", scopesTokenSite: true, doc } }) as const;
  const tags: RouteDoc["tags"] = ["Webhooks"];

  app.get(
    "/api/webhooks",
    reads({
      summary: "List your webhooks",
      description: "Newest first, each with its last delivery. A token for one site lists that site's webhooks only.",
      tags,
      response: { 200: WebhookListResponse },
    }),
    async (request): Promise<WebhookListResponse> => {
      const endpoints = await listWebhooks(ctx, scopeOf(request));
      return { webhooks: endpoints.map(presentWebhook) };
    },
  );

  app.post(
    "/api/webhooks",
    writes({
      summary: "Add a webhook",
      description: "The answer holds the signing secret, once.",
      tags,
      body: CreateWebhookRequest,
      response: { 201: CreatedWebhookResponse },
      errors: { 409: "The account has as many webhooks as it may." },
    }),
    async (request, reply) => {
      const { endpoint, secret } = await createWebhook(ctx, scopeOf(request), parseBody(request, CreateWebhookRequest));
      const body: CreatedWebhookResponse = { webhook: presentWebhook(endpoint), secret };
      return reply.status(201).send(body);
    },
  );

  app.patch<WebhookParams>(
    "/api/webhooks/:webhookId",
    writes({
      summary: "Change a webhook",
      description: "Its address, its events, or whether it is enabled; disabling it ends its pending deliveries.",
      tags,
      body: UpdateWebhookRequest,
      response: { 200: WebhookResponse },
    }),
    async (request): Promise<WebhookResponse> => {
      const endpoint = await updateWebhook(ctx, scopeOf(request), request.params.webhookId, parseBody(request, UpdateWebhookRequest));
      return presentWebhook(endpoint);
    },
  );

  app.delete<WebhookParams>(
    "/api/webhooks/:webhookId",
    writes({ summary: "Delete a webhook", description: "Its pending deliveries go with it.", tags, response: { 204: { description: "Deleted." } } }),
    async (request, reply) => {
      await deleteWebhook(ctx, scopeOf(request), request.params.webhookId);
      return reply.status(204).send();
    },
  );

  app.get<WebhookParams>(
    "/api/webhooks/:webhookId/deliveries",
    reads({
      summary: "List a webhook's deliveries",
      description: "The last 50, newest first, with status, response code and time.",
      tags,
      response: { 200: WebhookDeliveryListResponse },
    }),
    async (request): Promise<WebhookDeliveryListResponse> => {
      const deliveries = await listWebhookDeliveries(ctx, scopeOf(request), request.params.webhookId);
      return { deliveries: deliveries.map(presentWebhookDelivery) };
    },
  );

  app.post<DeliveryParams>(
    "/api/webhooks/:webhookId/deliveries/:deliveryId/redeliver",
    writes({
      summary: "Send a delivery again",
      description: "The same event, with the same id, queued for the worker.",
      tags,
      response: { 202: WebhookDeliveryResponse },
    }),
    async (request, reply) => {
      const delivery = await redeliverWebhook(ctx, scopeOf(request), request.params.webhookId, request.params.deliveryId);
      return reply.status(202).send(presentWebhookDelivery(delivery));
    },
  );

  app.post<WebhookParams>(
    "/api/webhooks/:webhookId/test",
    writes({
      summary: "Send a test event",
      description: "Queues a `ping` for the worker to send to this webhook.",
      tags,
      response: { 202: WebhookDeliveryResponse },
    }),
    async (request, reply) => {
      const delivery = await sendTestWebhook(ctx, scopeOf(request), request.params.webhookId);
      return reply.status(202).send(presentWebhookDelivery(delivery));
    },
  );
}
