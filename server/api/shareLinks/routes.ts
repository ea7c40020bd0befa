import type { FastifyInstance } from "fastify";
import {
  CreateShareLinkRequest,
  SHARE_LOG_LIMIT,
  UpdateShareLinkRequest,
  UpdateVisibilityRequest,
  type ShareLinkListResponse,
  type ShareLinkOpensResponse,
  type ShareLinkResponse,
} from "../../../common/shareLinks";
import type { SiteResponse } from "../../../common/sites";
import type { AppContext } from "../../context";
import { listShareLinkOpensForUser, listShareLinksForSite } from "../../db/repositories/shareLinks";
import { createShareLink, deleteShareLink, requireShareLink, updateShareLink } from "../../services/manageShareLinks";
import { setSiteVisibility } from "../../services/setSiteVisibility";
import { requireSite } from "../../services/siteAccess";
import { routeGuards } from "../routeGuards";
import { presentSite } from "../sites/present";
import { parseBody } from "../validate";
import { presentShareLink, presentShareLinkOpen } from "./present";

type SiteParams = { Params: { siteId: string } };
type LinkParams = { Params: { siteId: string; linkId: string } };

export async function shareLinkRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const guard = routeGuards(ctx);

  app.get<SiteParams>(
    "/api/sites/:siteId/share-links",
    { preHandler: guard.ownSite, config: { token: "full" } },
    async (request): Promise<ShareLinkListResponse> => {
      const { user, site } = request;
      const links = await listShareLinksForSite(ctx.db, user.id, site.id);
      const now = Date.now();
      return { links: links.map((link) => presentShareLink(link, site, ctx.urls, ctx.shareKeys, now)) };
    },
  );

  app.post<SiteParams>(
    "/api/sites/:siteId/share-links",
    { preHandler: guard.ownSiteForChange, config: { token: "full" } },
    async (request, reply) => {
      const { user, site } = request;
      const link = await createShareLink(ctx, user.id, site, parseBody(CreateShareLinkRequest, request.body));
      const body: ShareLinkResponse = presentShareLink(link, site, ctx.urls, ctx.shareKeys);
      return reply.status(201).send(body);
    },
  );

  app.patch<LinkParams>(
    "/api/sites/:siteId/share-links/:linkId",
    { preHandler: guard.ownSiteForChange, config: { token: "full" } },
    async (request): Promise<ShareLinkResponse> => {
      const { user, site } = request;
      const link = await updateShareLink(ctx, user.id, site, request.params.linkId, parseBody(UpdateShareLinkRequest, request.body));
      return presentShareLink(link, site, ctx.urls, ctx.shareKeys);
    },
  );

  app.delete<LinkParams>(
    "/api/sites/:siteId/share-links/:linkId",
    { preHandler: guard.ownSiteForChange, config: { token: "full" } },
    async (request, reply) => {
      await deleteShareLink(ctx, request.user.id, request.site, request.params.linkId);
      return reply.status(204).send();
    },
  );

  app.get<LinkParams>(
    "/api/sites/:siteId/share-links/:linkId/opens",
    { preHandler: guard.ownSite, config: { token: "full" } },
    async (request): Promise<ShareLinkOpensResponse> => {
      const { user, site } = request;
      const link = await requireShareLink(ctx, user.id, site, request.params.linkId);
      const opens = await listShareLinkOpensForUser(ctx.db, user.id, site.id, link.id, SHARE_LOG_LIMIT);
      return { opens: opens.map(presentShareLinkOpen) };
    },
  );

  app.put<SiteParams>(
    "/api/sites/:siteId/visibility",
    { preHandler: guard.ownSiteForChange, config: { token: "full" } },
    async (request): Promise<SiteResponse> => {
      const { user, site } = request;
      await setSiteVisibility(ctx, user.id, site.id, parseBody(UpdateVisibilityRequest, request.body).visibility);
      return presentSite(await requireSite(ctx.db, user.id, site.id), ctx.urls);
    },
  );
}
