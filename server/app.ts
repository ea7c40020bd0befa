// The Fastify application for the dashboard host: the JSON API, better-auth, and the built
// dashboard. Site hosts never reach it; server/http.ts sends them to the edge first.
import Fastify, { type FastifyInstance, type FastifyServerFactory, type RouteOptions } from "fastify";
import type { AppContext } from "./context";
import { AppError } from "./errors";
import { requestAborted } from "./requestAborted";
import { authRoutes } from "./api/auth/routes";
import { healthRoutes } from "./api/health/routes";
import { contactRoutes } from "./api/contact/routes";
import { configRoutes } from "./api/config/routes";
import { legalRoutes } from "./api/legal/routes";
import { meRoutes } from "./api/me/routes";
import { siteRoutes } from "./api/sites/routes";
import { fileRoutes } from "./api/files/routes";
import { deploymentRoutes } from "./api/deployments/routes";
import { historyRoutes } from "./api/history/routes";
import { deploymentCheckRoutes } from "./api/deployments/checks";
import { deployRoutes } from "./api/deploys/routes";
import { eventRoutes } from "./api/events/routes";
import { adminRoutes } from "./api/admin/routes";
import { adminInboxRoutes } from "./api/admin/inboxRoutes";
import { supportRoutes } from "./api/support/routes";
import { shareLinkRoutes } from "./api/shareLinks/routes";
import { analyticsRoutes } from "./api/analytics/routes";
import { domainRoutes, tlsAskRoutes } from "./api/domains/routes";
import { apiTokenRoutes } from "./api/tokens/routes";
import { webhookRoutes } from "./api/webhooks/routes";
import { notificationFeedRoutes } from "./api/notifications/routes";
import { openApiRoutes } from "./api/openapi/routes";
import { cliRoutes } from "./api/cli/routes";
import { metricsRoutes } from "./api/metrics/routes";
import fastifyMultipart from "@fastify/multipart";
import { byteLimit, type PlanCatalog } from "../common/plans";
import { webRoutes } from "./web/static";
import { rejectCrossSiteWrites, securityHeaders } from "./api/guards";
import { decorateGuardedRequest } from "./api/routeGuards";
import { isOutOfSpace } from "./storage/outOfSpace";
import { storageFull } from "./uploads/errors";
import { countForegroundRequests } from "./http/foregroundRequests";
import { ZOD_ONLY_SCHEMAS } from "./http/zodOnlySchemas";

export interface BuildAppOptions {
  /** Serve the built dashboard from this directory (the `web` role). */
  webDir?: string;
  serverFactory?: FastifyServerFactory;
  /** Told of every route as it is added: the security tests build their permission matrix from it. */
  onRoute?: (route: RouteOptions) => void;
}

/** The largest file any of the server's plans lets through; unlimited as byteLimit gives it. */
function largestPlanFile(plans: PlanCatalog): number {
  return Math.max(...plans.plans.map((plan) => byteLimit(plan.maxFileBytes)));
}

export async function buildApp(ctx: AppContext, options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: ctx.log,
    // Only the proxy we are connected to: request.ip is the address it appended to
    // X-Forwarded-For (the last), as on the edge (clientAddress). `true` would trust every hop
    // and take the first address, which the client writes, so rotating it would escape every
    // rate limit. (A hop count would not do: Fastify then trusts nothing.)
    trustProxy: ctx.env.trustProxy ? (_address: string, hop: number) => hop === 0 : false,
    bodyLimit: 1024 * 1024,
    // While the server closes, a request on a connection still open is answered, not refused with
    // 503: it was sent to a server that had accepted the connection (lifecycle.ts).
    return503OnClosing: false,
    // Routes validate with zod; Fastify's JSON-schema compilers (Ajv) are never loaded.
    schemaController: ZOD_ONLY_SCHEMAS,
    ...(options.serverFactory ? { serverFactory: options.serverFactory } : {}),
  });

  app.setErrorHandler((error, request, reply) => {
    // Refused before its body was read in full (a file over the limit, a full disk): what is left
    // of the body is not this connection's next request, so the client must not send one on it.
    if (!request.raw.complete) void reply.header("connection", "close");
    if (requestAborted(request.raw)) {
      // The server's logger: the API's routes log at warn and above, and this is worth an info line.
      ctx.log.info(
        { reqId: request.id, method: request.method, url: request.url },
        "request body not received in full: the client went away or stopped sending",
      );
      return reply.status(400).send({ error: { code: "request_aborted", message: "The request was not received in full." } });
    }
    if (error instanceof AppError) {
      return reply.status(error.status).send({
        error: {
          code: error.code,
          message: error.message,
          ...(error.detail ? { detail: error.detail } : {}),
          ...(error.details ? { fields: error.details } : {}),
        },
      });
    }
    if (isOutOfSpace(error)) {
      // Whatever was being written was dropped before it was recorded (storage/fs.ts removes its
      // temp file; nothing points at it), so the answer can say nothing changed.
      request.log.error({ err: error }, "the disk under the data directory is full: a write was refused");
      const full = storageFull();
      return reply.status(full.status).send({ error: { code: full.code, message: full.message, detail: full.detail } });
    }
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, "request failed");
      return reply.status(500).send({ error: { code: "internal", message: "Something went wrong on our side. Please try again." } });
    }
    // Fastify's own client errors: malformed JSON, a body too large, an unsupported content type.
    return reply
      .status(status)
      .send({ error: { code: (error as { code?: string }).code?.toLowerCase() ?? "bad_request", message: (error as Error).message } });
  });

  decorateGuardedRequest(app);
  // Every route, for the API reference (GET /api/openapi.json): added first, so none is missed.
  const routes: RouteOptions[] = [];
  app.addHook("onRoute", (route) => void routes.push(route));
  if (options.onRoute) app.addHook("onRoute", options.onRoute);
  app.addHook("onRequest", rejectCrossSiteWrites(ctx.env.appUrl));
  countForegroundRequests(app, ctx.foreground);
  app.addHook("onSend", securityHeaders);

  // Request lines are logged at debug level; problems are logged where they happen.
  await app.register((scope) => authRoutes(scope, ctx), { logLevel: "warn" });
  await app.register(
    async (api) => {
      await api.register(fastifyMultipart, {
        // The plan's limits are enforced while the bytes stream in (stageUpload); this is only the
        // outer bound, one byte over the largest plan's file so that an over-limit file is noticed
        // (none where a plan sets no largest file).
        limits: { files: 1, fields: 10, fieldSize: 4096, parts: 12, fileSize: largestPlanFile(ctx.plans) + 1 },
      });
      await healthRoutes(api, ctx);
      await configRoutes(api, ctx);
      await legalRoutes(api, ctx);
      await contactRoutes(api, ctx);
      await supportRoutes(api, ctx);
      await meRoutes(api, ctx);
      await siteRoutes(api, ctx);
      await fileRoutes(api, ctx);
      await deploymentRoutes(api, ctx);
      await historyRoutes(api, ctx);
      await deploymentCheckRoutes(api, ctx);
      // Its own scope: its bodies are streams, whatever their type (api/deploys/body.ts).
      await api.register(async (scope) => deployRoutes(scope, ctx));
      await eventRoutes(api, ctx);
      await adminRoutes(api, ctx);
      await adminInboxRoutes(api, ctx);
      await shareLinkRoutes(api, ctx);
      await analyticsRoutes(api, ctx);
      await domainRoutes(api, ctx);
      await apiTokenRoutes(api, ctx);
      await webhookRoutes(api, ctx);
      await notificationFeedRoutes(api, ctx);
      await cliRoutes(api, ctx);
      await tlsAskRoutes(api, ctx);
      await metricsRoutes(api, ctx);
      await openApiRoutes(api, ctx, routes);
    },
    { logLevel: "warn" },
  );
  if (options.webDir) await app.register((scope) => webRoutes(scope, options.webDir!), { logLevel: "warn" });
  else {
    app.setNotFoundHandler(async (_request, reply) => reply.status(404).send({ error: { code: "not_found", message: "Not found" } }));
  }
  return app;
}
