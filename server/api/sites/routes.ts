import type { FastifyInstance } from "fastify";
import {
  CreateSiteFields,
  SetSitePasswordRequest,
  UpdateScheduleRequest,
  UpdateSiteRequest,
  type SiteListResponse,
  type SiteResponse,
  type StatsResponse,
} from "../../../common/sites";
import { PLANS } from "../../../common/plans";
import type { AppContext } from "../../context";
import { getPlanIdForUser } from "../../db/repositories/profiles";
import { countSitesForUser, getSiteSummaryForUser, listSitesForUser, updateSiteDetails } from "../../db/repositories/sites";
import { countDeploymentsForUser } from "../../db/repositories/deployments";
import { storageUsedByUser } from "../../db/repositories/usage";
import { AppError } from "../../errors";
import { createSite, requireRoomForSite } from "../../services/createSite";
import { deleteSite, restoreSite } from "../../services/manageSite";
import { scheduleSite } from "../../services/scheduleSite";
import { setSitePassword } from "../../services/protectSite";
import { bandwidthLast30Days, viewsLast7Days } from "../../services/siteAnalytics";
import { requireSite, requireSiteForChange } from "../../services/siteAccess";
import { reserveSubdomain } from "../../services/subdomainPool";
import { requireUser } from "../session";
import { parseBody } from "../validate";
import { readUpload } from "./multipart";
import { presentSite } from "./present";
import { stageForUser } from "./staging";

export async function siteRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const present = async (userId: string, siteId: string): Promise<SiteResponse> => {
    const site = await getSiteSummaryForUser(ctx.db, userId, siteId);
    if (!site) throw new AppError("site_not_found", 404, "Site not found");
    return presentSite(site, ctx.urls);
  };

  app.post("/api/subdomains/reserve", async (request) => {
    const user = await requireUser(ctx, request);
    return { subdomain: await reserveSubdomain(ctx.db, user.id) };
  });

  app.get("/api/sites", async (request): Promise<SiteListResponse> => {
    const user = await requireUser(ctx, request);
    const [sites, views] = await Promise.all([listSitesForUser(ctx.db, user.id), viewsLast7Days(ctx.db, user.id, new Date())]);
    return {
      sites: sites.map((site) => presentSite(site, ctx.urls)),
      views_7d: Object.fromEntries(sites.map((site) => [site.id, views.get(site.id) ?? 0])),
    };
  });

  app.post("/api/sites", async (request, reply) => {
    const user = await requireUser(ctx, request);
    const result = await readUpload(request, async (rawFields, file) => {
      let fields: CreateSiteFields;
      try {
        fields = parseBody(CreateSiteFields, rawFields);
        await requireRoomForSite(ctx, user.id);
      } catch (error) {
        file.file.resume();
        throw error;
      }
      const { staged, quotaBytes } = await stageForUser(ctx, user.id, file, { extractZip: true });
      return createSite(ctx, { userId: user.id, fields, staged, quotaBytes, note: `Uploaded ${file.filename}` });
    });
    return reply.status(201).send(await present(user.id, result.site.id));
  });

  app.get<{ Params: { siteId: string } }>("/api/sites/:siteId", async (request) => {
    const user = await requireUser(ctx, request);
    return presentSite(await requireSite(ctx.db, user.id, request.params.siteId), ctx.urls);
  });

  app.patch<{ Params: { siteId: string } }>("/api/sites/:siteId", async (request) => {
    const user = await requireUser(ctx, request);
    const site = await requireSiteForChange(ctx.db, user.id, request.params.siteId);
    const body = parseBody(UpdateSiteRequest, request.body);
    await updateSiteDetails(ctx.db, user.id, site.id, {
      name: body.name,
      ...(body.description !== undefined ? { description: body.description || null } : {}),
    });
    ctx.events.emit("site", { userId: user.id, siteId: site.id, subdomain: site.subdomain });
    return present(user.id, site.id);
  });

  app.patch<{ Params: { siteId: string } }>("/api/sites/:siteId/schedule", async (request) => {
    const user = await requireUser(ctx, request);
    const site = await requireSiteForChange(ctx.db, user.id, request.params.siteId);
    await scheduleSite(ctx, user.id, site.id, parseBody(UpdateScheduleRequest, request.body));
    return present(user.id, site.id);
  });

  app.put<{ Params: { siteId: string } }>("/api/sites/:siteId/password", async (request) => {
    const user = await requireUser(ctx, request);
    const site = await requireSiteForChange(ctx.db, user.id, request.params.siteId);
    await setSitePassword(ctx, user.id, site.id, parseBody(SetSitePasswordRequest, request.body).password);
    return present(user.id, site.id);
  });

  app.delete<{ Params: { siteId: string } }>("/api/sites/:siteId/password", async (request) => {
    const user = await requireUser(ctx, request);
    const site = await requireSiteForChange(ctx.db, user.id, request.params.siteId);
    await setSitePassword(ctx, user.id, site.id, null);
    return present(user.id, site.id);
  });

  app.delete<{ Params: { siteId: string } }>("/api/sites/:siteId", async (request) => {
    const user = await requireUser(ctx, request);
    const site = await requireSite(ctx.db, user.id, request.params.siteId);
    await deleteSite(ctx, user.id, site.id);
    return present(user.id, site.id);
  });

  app.post<{ Params: { siteId: string } }>("/api/sites/:siteId/restore", async (request) => {
    const user = await requireUser(ctx, request);
    const site = await requireSite(ctx.db, user.id, request.params.siteId);
    await restoreSite(ctx, user.id, site.id);
    return present(user.id, site.id);
  });

  app.get("/api/stats", async (request): Promise<StatsResponse> => {
    const user = await requireUser(ctx, request);
    const plan = PLANS[await getPlanIdForUser(ctx.db, user.id)];
    const [sites, deployments, used, bandwidth] = await Promise.all([
      countSitesForUser(ctx.db, user.id),
      countDeploymentsForUser(ctx.db, user.id),
      storageUsedByUser(ctx.db, user.id),
      bandwidthLast30Days(ctx.db, user.id, new Date()),
    ]);
    return {
      total_sites: sites,
      deployments,
      storage_used: used,
      storage_quota: plan.storageBytes,
      max_file_bytes: plan.maxFileBytes,
      plan: plan.id,
      bandwidth_30d: bandwidth,
    };
  });
}
