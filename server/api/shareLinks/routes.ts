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
import { requireSite, requireSiteForChange } from "../../services/siteAccess";
import { requireUser } from "../session";
import { presentSite } from "../sites/present";
import { parseBody } from "../validate";
import { presentShareLink, presentShareLinkOpen } from "./present";

type LinkParams = { Params: { siteId: string; linkId: string } };

export async function shareLinkRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get<{ Params: { siteId: string } }>("/api/sites/:siteId/share-links", async (request): Promise<ShareLinkListResponse> => {
    const user = await requireUser(ctx, request);
    const site = await requireSite(ctx.db, user.id, request.params.siteId);
    const links = await listShareLinksForSite(ctx.db, user.id, site.id);
    const now = Date.now();
    return { links: links.map((link) => presentShareLink(link, site, ctx.urls, ctx.shareKeys, now)) };
  });

  app.post<{ Params: { siteId: string } }>("/api/sites/:siteId/share-links", async (request, reply) => {
    const user = await requireUser(ctx, request);
    const site = await requireSiteForChange(ctx.db, user.id, request.params.siteId);
    const link = await createShareLink(ctx, user.id, site, parseBody(CreateShareLinkRequest, request.body));
    const body: ShareLinkResponse = presentShareLink(link, site, ctx.urls, ctx.shareKeys);
    return reply.status(201).send(body);
  });

  app.patch<LinkParams>("/api/sites/:siteId/share-links/:linkId", async (request): Promise<ShareLinkResponse> => {
    const user = await requireUser(ctx, request);
    const site = await requireSiteForChange(ctx.db, user.id, request.params.siteId);
    const link = await updateShareLink(ctx, user.id, site, request.params.linkId, parseBody(UpdateShareLinkRequest, request.body));
    return presentShareLink(link, site, ctx.urls, ctx.shareKeys);
  });

  app.delete<LinkParams>("/api/sites/:siteId/share-links/:linkId", async (request, reply) => {
    const user = await requireUser(ctx, request);
    const site = await requireSiteForChange(ctx.db, user.id, request.params.siteId);
    await deleteShareLink(ctx, user.id, site, request.params.linkId);
    return reply.status(204).send();
  });

  app.get<LinkParams>("/api/sites/:siteId/share-links/:linkId/opens", async (request): Promise<ShareLinkOpensResponse> => {
    const user = await requireUser(ctx, request);
    const site = await requireSite(ctx.db, user.id, request.params.siteId);
    const link = await requireShareLink(ctx, user.id, site, request.params.linkId);
    const opens = await listShareLinkOpensForUser(ctx.db, user.id, site.id, link.id, SHARE_LOG_LIMIT);
    return { opens: opens.map(presentShareLinkOpen) };
  });

  app.put<{ Params: { siteId: string } }>("/api/sites/:siteId/visibility", async (request): Promise<SiteResponse> => {
    const user = await requireUser(ctx, request);
    const site = await requireSiteForChange(ctx.db, user.id, request.params.siteId);
    await setSiteVisibility(ctx, user.id, site.id, parseBody(UpdateVisibilityRequest, request.body).visibility);
    return presentSite(await requireSite(ctx.db, user.id, site.id), ctx.urls);
  });
}
