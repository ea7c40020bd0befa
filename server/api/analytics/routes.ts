import type { FastifyInstance } from "fastify";
import { analyticsQuerySchema, type AnalyticsResponse } from "../../../common/analytics";
import type { AppContext } from "../../context";
import { siteAnalytics } from "../../services/siteAnalytics";
import { routeGuards } from "../routeGuards";
import { parseBody } from "../validate";

export async function analyticsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const guard = routeGuards(ctx);

  app.get<{ Params: { siteId: string } }>(
    "/api/sites/:siteId/analytics",
    { preHandler: guard.ownSite, config: { token: "read" } },
    async (request): Promise<AnalyticsResponse> => {
      const { range } = parseBody(analyticsQuerySchema, request.query);
      return siteAnalytics(ctx.db, request.site.id, range, new Date(), ctx.env.geoipCsv !== undefined);
    },
  );
}
