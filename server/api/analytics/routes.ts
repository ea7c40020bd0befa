import type { FastifyInstance } from "fastify";
import { analyticsQuerySchema, type AnalyticsResponse } from "../../../common/analytics";
import type { AppContext } from "../../context";
import { siteAnalytics } from "../../services/siteAnalytics";
import { requireSite } from "../../services/siteAccess";
import { requireUser } from "../session";
import { parseBody } from "../validate";

export async function analyticsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get<{ Params: { siteId: string } }>("/api/sites/:siteId/analytics", async (request): Promise<AnalyticsResponse> => {
    const user = await requireUser(ctx, request);
    const site = await requireSite(ctx.db, user.id, request.params.siteId);
    const { range } = parseBody(analyticsQuerySchema, request.query);
    return siteAnalytics(ctx.db, site.id, range, new Date(), ctx.env.geoipCsv !== undefined);
  });
}
