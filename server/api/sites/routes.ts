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
import { CreateSiteRequest } from "../../../common/deploys";
import type { AppContext } from "../../context";
import { getSiteSummaryForUser, listSitesForUser } from "../../db/repositories/sites";
import { AppError } from "../../errors";
import { accountStats } from "../../services/accountStats";
import { createEmptySite, createSite, requireRoomForSite } from "../../services/createSite";
import { editSiteDetails } from "../../services/editSiteDetails";
import { deleteSite, restoreSite } from "../../services/manageSite";
import { scheduleSite } from "../../services/scheduleSite";
import { setSitePassword } from "../../services/protectSite";
import { viewsLast7Days } from "../../services/siteAnalytics";
import { stageUploadForUser } from "../../services/stageUploadForUser";
import { reserveSubdomain } from "../../services/subdomainPool";
import { routeGuards } from "../routeGuards";
import { parseBody } from "../validate";
import { incomingFile, readUpload } from "./multipart";
import { presentSite } from "./present";

type SiteParams = { Params: { siteId: string } };

export async function siteRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const guard = routeGuards(ctx);
  /** The site as it is after a change. */
  const present = async (userId: string, siteId: string): Promise<SiteResponse> => {
    const site = await getSiteSummaryForUser(ctx.db, userId, siteId);
    if (!site) throw new AppError("site_not_found", 404, "Site not found");
    return presentSite(site, ctx.urls);
  };

  app.post("/api/subdomains/reserve", { preHandler: guard.signedIn, config: { token: "full" } }, async (request) => {
    return { subdomain: await reserveSubdomain(ctx.db, request.user.id) };
  });

  app.get("/api/sites", { preHandler: guard.signedIn, config: { token: "read", listsSites: true } }, async (request): Promise<SiteListResponse> => {
    const userId = request.user.id;
    const [all, views] = await Promise.all([listSitesForUser(ctx.db, userId), viewsLast7Days(ctx.db, userId, new Date())]);
    // A token for one site lists that site only.
    const scope = request.apiToken?.site_id ?? null;
    const sites = scope === null ? all : all.filter((site) => site.id === scope);
    return {
      sites: sites.map((site) => presentSite(site, ctx.urls)),
      views_7d: Object.fromEntries(sites.map((site) => [site.id, views.get(site.id) ?? 0])),
    };
  });

  app.post("/api/sites", { preHandler: guard.signedIn, config: { token: "full" } }, async (request, reply) => {
    const userId = request.user.id;
    // JSON: an empty site for the deploy API; multipart: the wizard's site with its first file.
    if ((request.headers["content-type"] ?? "").toLowerCase().startsWith("application/json")) {
      const site = await createEmptySite(ctx, userId, parseBody(CreateSiteRequest, request.body));
      return reply.status(201).send(await present(userId, site.id));
    }
    const result = await readUpload(request, async (rawFields, file) => {
      let fields: CreateSiteFields;
      try {
        fields = parseBody(CreateSiteFields, rawFields);
        await requireRoomForSite(ctx, userId);
      } catch (error) {
        file.file.resume();
        throw error;
      }
      const { staged, quotaBytes } = await stageUploadForUser(ctx, userId, incomingFile(file), { extractZip: true });
      return createSite(ctx, { userId, fields, staged, quotaBytes, note: `Uploaded ${file.filename}` });
    });
    return reply.status(201).send(await present(userId, result.site.id));
  });

  app.get<SiteParams>("/api/sites/:siteId", { preHandler: guard.ownSite, config: { token: "read" } }, async (request) =>
    presentSite(request.site, ctx.urls),
  );

  app.patch<SiteParams>("/api/sites/:siteId", { preHandler: guard.ownSiteForChange, config: { token: "full" } }, async (request) => {
    await editSiteDetails(ctx, request.user.id, request.site.id, parseBody(UpdateSiteRequest, request.body));
    return present(request.user.id, request.site.id);
  });

  app.patch<SiteParams>("/api/sites/:siteId/schedule", { preHandler: guard.ownSiteForChange, config: { token: "full" } }, async (request) => {
    await scheduleSite(ctx, request.user.id, request.site.id, parseBody(UpdateScheduleRequest, request.body));
    return present(request.user.id, request.site.id);
  });

  app.put<SiteParams>("/api/sites/:siteId/password", { preHandler: guard.ownSiteForChange, config: { token: "full" } }, async (request) => {
    await setSitePassword(ctx, request.user.id, request.site.id, parseBody(SetSitePasswordRequest, request.body).password);
    return present(request.user.id, request.site.id);
  });

  app.delete<SiteParams>("/api/sites/:siteId/password", { preHandler: guard.ownSiteForChange, config: { token: "full" } }, async (request) => {
    await setSitePassword(ctx, request.user.id, request.site.id, null);
    return present(request.user.id, request.site.id);
  });

  // Deleting a deleted site, and restoring a live one, are refused by their services (409).
  app.delete<SiteParams>("/api/sites/:siteId", { preHandler: guard.ownSite, config: { token: "full" } }, async (request) => {
    await deleteSite(ctx, request.user.id, request.site.id);
    return present(request.user.id, request.site.id);
  });

  app.post<SiteParams>("/api/sites/:siteId/restore", { preHandler: guard.ownSite, config: { token: "full" } }, async (request) => {
    await restoreSite(ctx, request.user.id, request.site.id);
    return present(request.user.id, request.site.id);
  });

  app.get("/api/stats", { preHandler: guard.signedIn, config: { token: "read" } }, async (request): Promise<StatsResponse> =>
    accountStats(ctx, request.user.id),
  );
}
