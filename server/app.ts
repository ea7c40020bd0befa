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
import { deployRoutes } from "./api/deploys/routes";
import { eventRoutes } from "./api/events/routes";
import { adminRoutes } from "./api/admin/routes";
import { shareLinkRoutes } from "./api/shareLinks/routes";
import { analyticsRoutes } from "./api/analytics/routes";
import { domainRoutes, tlsAskRoutes } from "./api/domains/routes";
import { apiTokenRoutes } from "./api/tokens/routes";
import { webhookRoutes } from "./api/webhooks/routes";
import { openApiRoutes } from "./api/openapi/routes";
import { cliRoutes } from "./api/cli/routes";
import fastifyMultipart from "@fastify/multipart";
import { PLANS } from "../common/plans";
import { webRoutes } from "./web/static";
import { rejectCrossSiteWrites, securityHeaders } from "./api/guards";
import { decorateGuardedRequest } from "./api/routeGuards";

export interface BuildAppOptions {
  /** Serve the built dashboard from this directory (the `web` role). */
  webDir?: string;
  serverFactory?: FastifyServerFactory;
  /** Told of every route as it is added: the security tests build their permission matrix from it. */
  onRoute?: (route: RouteOptions) => void;
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
    ...(options.serverFactory ? { serverFactory: options.serverFactory } : {}),
  });

  app.setErrorHandler((error, request, reply) => {
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
  app.addHook("onSend", securityHeaders);

  // Request lines are logged at debug level; problems are logged where they happen.
  await app.register((scope) => authRoutes(scope, ctx), { logLevel: "warn" });
  await app.register(
    async (api) => {
      await api.register(fastifyMultipart, {
        // The plan's limits are enforced while the bytes stream in (stageUpload); this is only the
        // outer bound, one byte over the largest plan's file so that an over-limit file is noticed.
        limits: { files: 1, fields: 10, fieldSize: 4096, parts: 12, fileSize: Math.max(...Object.values(PLANS).map((p) => p.maxFileBytes)) + 1 },
      });
      await healthRoutes(api, ctx);
      await configRoutes(api, ctx);
      await legalRoutes(api, ctx);
      await contactRoutes(api, ctx);
      await meRoutes(api, ctx);
      await siteRoutes(api, ctx);
      await fileRoutes(api, ctx);
      await deploymentRoutes(api, ctx);
      // Its own scope: its bodies are streams, whatever their type (api/deploys/body.ts).
      await api.register(async (scope) => deployRoutes(scope, ctx));
      await eventRoutes(api, ctx);
      await adminRoutes(api, ctx);
      await shareLinkRoutes(api, ctx);
      await analyticsRoutes(api, ctx);
      await domainRoutes(api, ctx);
      await apiTokenRoutes(api, ctx);
      await webhookRoutes(api, ctx);
      await cliRoutes(api, ctx);
      await tlsAskRoutes(api, ctx);
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
