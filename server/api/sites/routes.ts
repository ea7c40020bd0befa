import type { FastifyInstance } from "fastify";
import {
  CreateSiteFields,
  DELETION_GRACE_DAYS,
  ReserveSubdomainResponse,
  SetSitePasswordRequest,
  SiteListResponse,
  SiteResponse,
  StatsResponse,
  UpdateScheduleRequest,
  UpdateSiteRequest,
} from "../../../common/sites";
import { CreateSiteRequest } from "../../../common/deploys";
import type { AppContext } from "../../context";
import { listSitesForUser } from "../../db/repositories/sites";
import { accountStats } from "../../services/accountStats";
import { createEmptySite, createSite, requireRoomForSite } from "../../services/createSite";
import { editSiteDetails } from "../../services/editSiteDetails";
import { deleteSite, restoreSite } from "../../services/manageSite";
import { scheduleSite } from "../../services/scheduleSite";
import { requireSiteSummary } from "../../services/siteAccess";
import { setSitePassword } from "../../services/protectSite";
import { viewsLast7Days } from "../../services/siteAnalytics";
import { stageUploadForUser } from "../../services/stageUploadForUser";
import { reserveSubdomain } from "../../services/subdomainPool";
import { routeGuards } from "../routeGuards";
import { parseBody, parseFormFields } from "../validate";
import { incomingFile, readUpload } from "./multipart";
import { presentSite } from "./present";

type SiteParams = { Params: { siteId: string } };

export async function siteRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const guard = routeGuards(ctx);
  /** The site as it is after a change. */
  const present = async (userId: string, siteId: string): Promise<SiteResponse> =>
    presentSite(await requireSiteSummary(ctx.db, userId, siteId), ctx.urls);

  app.post(
    "/api/subdomains/reserve",
    {
      preHandler: guard.signedIn,
      config: {
        token: "full",
        doc: {
          summary: "Reserve a subdomain for a new site",
          description: "The same name until a site uses it. Send it as the subdomain field of POST /api/sites.",
          tags: ["Sites"],
          response: { 200: ReserveSubdomainResponse },
        },
      },
    },
    async (request): Promise<ReserveSubdomainResponse> => {
      return { subdomain: await reserveSubdomain(ctx.db, request.user.id) };
    },
  );

  app.get(
    "/api/sites",
    {
      preHandler: guard.signedIn,
      config: {
        token: "read",
        listsSites: true,
        doc: {
          summary: "List your sites",
          description: "Newest first, with each site's page views over the last 7 days. A token for one site lists that site only.",
          tags: ["Sites"],
          response: { 200: SiteListResponse },
        },
      },
    },
    async (request): Promise<SiteListResponse> => {
      const userId = request.user.id;
      const [all, views] = await Promise.all([listSitesForUser(ctx.db, userId), viewsLast7Days(ctx.db, userId, new Date())]);
      // A token for one site lists that site only.
      const scope = request.apiToken?.site_id ?? null;
      const sites = scope === null ? all : all.filter((site) => site.id === scope);
      return {
        sites: sites.map((site) => presentSite(site, ctx.urls)),
        views_7d: Object.fromEntries(sites.map((site) => [site.id, views.get(site.id) ?? 0])),
      };
    },
  );

  app.post(
    "/api/sites",
    {
      preHandler: guard.signedIn,
      config: {
        token: "full",
        doc: {
          summary: "Create a site",
          description:
            "As JSON: an empty site, ready for its first deploy (the deploy API), on the subdomain reserved for you when the body names it, else on one from the pool. As multipart: the wizard's way, on the subdomain reserved for you, with the file (an HTML page, a PDF, an image or a zip of a folder) published as version 1.",
          tags: ["Sites"],
          body: CreateSiteRequest,
          form: { fields: CreateSiteFields, file: "The site's content: one file, or a zip that is unpacked." },
          response: { 201: SiteResponse },
          errors: {
            409: "The subdomain is not reserved for you, or the account has as many sites as it may.",
            413: "Over the plan's file size or storage.",
          },
        },
      },
    },
    async (request, reply) => {
      const userId = request.user.id;
      if ((request.headers["content-type"] ?? "").toLowerCase().startsWith("application/json")) {
        const site = await createEmptySite(ctx, userId, parseBody(request, CreateSiteRequest));
        return reply.status(201).send(await present(userId, site.id));
      }
      const result = await readUpload(request, async (rawFields, file) => {
        let fields: CreateSiteFields;
        try {
          fields = parseFormFields(request, CreateSiteFields, rawFields);
          await requireRoomForSite(ctx, userId);
        } catch (error) {
          file.file.resume();
          throw error;
        }
        const { staged, quotaBytes } = await stageUploadForUser(ctx, userId, incomingFile(file), { extractZip: true });
        return createSite(ctx, { userId, fields, staged, quotaBytes, note: `Uploaded ${file.filename}` });
      });
      return reply.status(201).send(await present(userId, result.site.id));
    },
  );

  app.get<SiteParams>(
    "/api/sites/:siteId",
    { preHandler: guard.ownSite, config: { token: "read", doc: { summary: "Read a site", tags: ["Sites"], response: { 200: SiteResponse } } } },
    async (request): Promise<SiteResponse> => present(request.user.id, request.site.id),
  );

  app.patch<SiteParams>(
    "/api/sites/:siteId",
    {
      preHandler: guard.ownSiteForChange,
      config: {
        token: "full",
        doc: { summary: "Rename a site or change its description", tags: ["Sites"], body: UpdateSiteRequest, response: { 200: SiteResponse } },
      },
    },
    async (request) => {
      await editSiteDetails(ctx, request.user.id, request.site.id, parseBody(request, UpdateSiteRequest));
      return present(request.user.id, request.site.id);
    },
  );

  app.patch<SiteParams>(
    "/api/sites/:siteId/schedule",
    {
      preHandler: guard.ownSiteForChange,
      config: {
        token: "full",
        doc: {
          summary: "Schedule a site's expiry and go-live time",
          description: "After the expiry every host of the site answers 410; before the go-live time, 404. Null clears a time, on any plan.",
          tags: ["Sites"],
          body: UpdateScheduleRequest,
          response: { 200: SiteResponse },
          errors: { 403: "The user's plan does not include site expiry and go-live times (pro_required); the message names the plan that does." },
        },
      },
    },
    async (request) => {
      await scheduleSite(ctx, request.user.id, request.site.id, parseBody(request, UpdateScheduleRequest));
      return present(request.user.id, request.site.id);
    },
  );

  app.put<SiteParams>(
    "/api/sites/:siteId/password",
    {
      preHandler: guard.ownSiteForChange,
      config: {
        token: "full",
        doc: {
          summary: "Protect a site with a password",
          description: "Sets or changes the password every host of the site asks for; visitors' earlier passes stop working.",
          tags: ["Sites"],
          body: SetSitePasswordRequest,
          response: { 200: SiteResponse },
          errors: { 403: "The user's plan does not include password protection (pro_required); the message names the plan that does." },
        },
      },
    },
    async (request) => {
      await setSitePassword(ctx, request.user.id, request.site.id, parseBody(request, SetSitePasswordRequest).password);
      return present(request.user.id, request.site.id);
    },
  );

  app.delete<SiteParams>(
    "/api/sites/:siteId/password",
    {
      preHandler: guard.ownSiteForChange,
      config: {
        token: "full",
        doc: { summary: "Remove a site's password", description: "On any plan.", tags: ["Sites"], response: { 200: SiteResponse } },
      },
    },
    async (request) => {
      await setSitePassword(ctx, request.user.id, request.site.id, null);
      return present(request.user.id, request.site.id);
    },
  );

  // Deleting a deleted site, and restoring a live one, are refused by their services (409).
  app.delete<SiteParams>(
    "/api/sites/:siteId",
    {
      preHandler: guard.ownSite,
      config: {
        token: "full",
        doc: {
          summary: "Delete a site",
          description: `The site is no longer served at once and is purged after ${DELETION_GRACE_DAYS} days; until then it can be restored.`,
          tags: ["Sites"],
          response: { 200: SiteResponse },
          errors: { 409: "The site is already deleted." },
        },
      },
    },
    async (request) => {
      await deleteSite(ctx, request.user.id, request.site.id);
      return present(request.user.id, request.site.id);
    },
  );

  app.post<SiteParams>(
    "/api/sites/:siteId/restore",
    {
      preHandler: guard.ownSite,
      config: {
        token: "full",
        doc: {
          summary: "Restore a deleted site",
          tags: ["Sites"],
          response: { 200: SiteResponse },
          errors: { 409: "The site is not deleted, or the account has as many sites as it may." },
        },
      },
    },
    async (request) => {
      await restoreSite(ctx, request.user.id, request.site.id);
      return present(request.user.id, request.site.id);
    },
  );

  app.get(
    "/api/stats",
    {
      preHandler: guard.signedIn,
      config: {
        token: "read",
        doc: {
          summary: "Read your account's figures and plan",
          description: "Sites, deployments, storage and bandwidth, and the plan's limits and features.",
          tags: ["Sites"],
          response: { 200: StatsResponse },
        },
      },
    },
    async (request): Promise<StatsResponse> => accountStats(ctx, request.user.id),
  );
}
