import type { FastifyInstance } from "fastify";
import { analyticsQuerySchema, analyticsResponseSchema, type AnalyticsResponse } from "../../../common/analytics";
import type { AppContext } from "../../context";
import { siteAnalytics } from "../../services/siteAnalytics";
import { routeGuards } from "../routeGuards";
import { parseQuery } from "../validate";

export async function analyticsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const guard = routeGuards(ctx);

  app.get<{ Params: { siteId: string } }>(
    "/api/sites/:siteId/analytics",
    {
      preHandler: guard.ownSite,
      config: {
        token: "read",
        doc: {
          summary: "Read a site's analytics",
          description:
            "Totals, a time series and top lists for one range, with the previous period for comparison. Buckets are UTC hours (24h) or UTC days.",
          tags: ["Analytics"],
          query: analyticsQuerySchema,
          response: { 200: analyticsResponseSchema },
        },
      },
    },
    async (request): Promise<AnalyticsResponse> => {
      const { range } = parseQuery(request, analyticsQuerySchema);
      return siteAnalytics(ctx.db, request.site.id, range, new Date(), ctx.env.geoipCsv !== undefined);
    },
  );
}
