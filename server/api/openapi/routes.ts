// GET /api/openapi.json: the API reference, built once from the routes the app registered (the
// list app.ts collects with an onRoute hook) on the first request, when every route is in.
import type { FastifyInstance, RouteOptions } from "fastify";
import { OPENAPI_PATH, type OpenApiDocument } from "../../../common/openapi";
import { berthVersion } from "../../backup/manifest";
import type { AppContext } from "../../context";
import { buildOpenApiDocument } from "./document";

export async function openApiRoutes(app: FastifyInstance, ctx: AppContext, routes: readonly RouteOptions[]): Promise<void> {
  let document: OpenApiDocument | undefined;
  app.get(
    OPENAPI_PATH,
    {
      config: {
        doc: {
          summary: "Read this reference",
          description: "The OpenAPI 3.1 document of this server's API, built from the routes it runs. The docs' API reference page renders it.",
          tags: ["Service"],
          public: true,
          response: { 200: { description: "An OpenAPI 3.1 document.", contentType: "application/json" } },
        },
      },
    },
    async () => {
      if (!document) {
        const built = buildOpenApiDocument(routes, { appUrl: ctx.env.appUrl, version: berthVersion() });
        // The test suite fails on these; a server still answers with the routes that are documented.
        for (const problem of built.problems) ctx.log.warn(`API reference: ${problem}`);
        document = built.document;
      }
      return document;
    },
  );
}
