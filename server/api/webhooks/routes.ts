// Webhooks. A session or a `full` API token manages them, a `read` token lists them and their
// deliveries; a one-site token reaches only its site's webhooks (the service keeps to
// request.apiToken's site, so the routes declare `scopesTokenSite`).
import type { FastifyInstance, FastifyRequest } from "fastify";
import {
  CreateWebhookRequest,
  UpdateWebhookRequest,
  type CreatedWebhookResponse,
  type WebhookDeliveryListResponse,
  type WebhookListResponse,
  type WebhookResponse,
} from "../../../common/webhooks";
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
  const reads = { preHandler: guard.signedIn, config: { token: "read", scopesTokenSite: true } } as const;
  const writes = { preHandler: guard.signedIn, config: { token: "full", scopesTokenSite: true } } as const;

  app.get("/api/webhooks", reads, async (request): Promise<WebhookListResponse> => {
    const endpoints = await listWebhooks(ctx, scopeOf(request));
    return { webhooks: endpoints.map(presentWebhook) };
  });

  app.post("/api/webhooks", writes, async (request, reply) => {
    const { endpoint, secret } = await createWebhook(ctx, scopeOf(request), parseBody(CreateWebhookRequest, request.body));
    const body: CreatedWebhookResponse = { webhook: presentWebhook(endpoint), secret };
    return reply.status(201).send(body);
  });

  app.patch<WebhookParams>("/api/webhooks/:webhookId", writes, async (request): Promise<WebhookResponse> => {
    const endpoint = await updateWebhook(ctx, scopeOf(request), request.params.webhookId, parseBody(UpdateWebhookRequest, request.body));
    return presentWebhook(endpoint);
  });

  app.delete<WebhookParams>("/api/webhooks/:webhookId", writes, async (request, reply) => {
    await deleteWebhook(ctx, scopeOf(request), request.params.webhookId);
    return reply.status(204).send();
  });

  app.get<WebhookParams>("/api/webhooks/:webhookId/deliveries", reads, async (request): Promise<WebhookDeliveryListResponse> => {
    const deliveries = await listWebhookDeliveries(ctx, scopeOf(request), request.params.webhookId);
    return { deliveries: deliveries.map(presentWebhookDelivery) };
  });

  app.post<DeliveryParams>("/api/webhooks/:webhookId/deliveries/:deliveryId/redeliver", writes, async (request, reply) => {
    const delivery = await redeliverWebhook(ctx, scopeOf(request), request.params.webhookId, request.params.deliveryId);
    return reply.status(202).send(presentWebhookDelivery(delivery));
  });

  app.post<WebhookParams>("/api/webhooks/:webhookId/test", writes, async (request, reply) => {
    const delivery = await sendTestWebhook(ctx, scopeOf(request), request.params.webhookId);
    return reply.status(202).send(presentWebhookDelivery(delivery));
  });
}
