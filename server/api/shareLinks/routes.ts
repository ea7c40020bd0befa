import type { FastifyInstance } from "fastify";
import {
  CreateShareLinkRequest,
  SHARE_LOG_LIMIT,
  ShareLinkListResponse,
  ShareLinkOpensResponse,
  ShareLinkResponse,
  UpdateShareLinkRequest,
  UpdateVisibilityRequest,
} from "../../../common/shareLinks";
import { SiteResponse } from "../../../common/sites";
import type { AppContext } from "../../context";
import { listShareLinkOpensForUser, listShareLinksForSite } from "../../db/repositories/shareLinks";
import { createShareLink, deleteShareLink, requireShareLink, updateShareLink } from "../../services/manageShareLinks";
import { setSiteVisibility } from "../../services/setSiteVisibility";
import { requireSiteSummary } from "../../services/siteAccess";
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
    {
      preHandler: guard.ownSite,
      config: {
        token: "full",
        doc: { summary: "List a site's share links", description: "Newest first.", tags: ["Share links"], response: { 200: ShareLinkListResponse } },
      },
    },
    async (request): Promise<ShareLinkListResponse> => {
      const { user, site } = request;
      const links = await listShareLinksForSite(ctx.db, user.id, site.id);
      const now = Date.now();
      return { links: links.map((link) => presentShareLink(link, site, ctx.urls, ctx.shareKeys, now)) };
    },
  );

  app.post<SiteParams>(
    "/api/sites/:siteId/share-links",
    {
      preHandler: guard.ownSiteForChange,
      config: {
        token: "full",
        doc: {
          summary: "Create a share link",
          description: "A link that opens the site for one browser, with an optional expiry, password and view limit.",
          tags: ["Share links"],
          body: CreateShareLinkRequest,
          response: { 201: ShareLinkResponse },
          errors: {
            403: "The user's plan does not include share links (pro_required); the message names the plan that does.",
            409: "The site has as many links as an account may make.",
          },
        },
      },
    },
    async (request, reply) => {
      const { user, site } = request;
      const link = await createShareLink(ctx, user.id, site, parseBody(request, CreateShareLinkRequest));
      const body: ShareLinkResponse = presentShareLink(link, site, ctx.urls, ctx.shareKeys);
      return reply.status(201).send(body);
    },
  );

  app.patch<LinkParams>(
    "/api/sites/:siteId/share-links/:linkId",
    {
      preHandler: guard.ownSiteForChange,
      config: {
        token: "full",
        doc: {
          summary: "Rename, revoke or restore a share link",
          tags: ["Share links"],
          body: UpdateShareLinkRequest,
          response: { 200: ShareLinkResponse },
          errors: { 404: "No such link of this site." },
        },
      },
    },
    async (request): Promise<ShareLinkResponse> => {
      const { user, site } = request;
      const link = await updateShareLink(ctx, user.id, site, request.params.linkId, parseBody(request, UpdateShareLinkRequest));
      return presentShareLink(link, site, ctx.urls, ctx.shareKeys);
    },
  );

  app.delete<LinkParams>(
    "/api/sites/:siteId/share-links/:linkId",
    {
      preHandler: guard.ownSiteForChange,
      config: {
        token: "full",
        doc: {
          summary: "Delete a share link",
          tags: ["Share links"],
          response: { 204: { description: "The link no longer opens the site." } },
          errors: { 404: "No such link of this site." },
        },
      },
    },
    async (request, reply) => {
      await deleteShareLink(ctx, request.user.id, request.site, request.params.linkId);
      return reply.status(204).send();
    },
  );

  app.get<LinkParams>(
    "/api/sites/:siteId/share-links/:linkId/opens",
    {
      preHandler: guard.ownSite,
      config: {
        token: "full",
        doc: {
          summary: "Read a share link's access log",
          description: `The last ${SHARE_LOG_LIMIT} opens, newest first.`,
          tags: ["Share links"],
          response: { 200: ShareLinkOpensResponse },
          errors: { 404: "No such link of this site." },
        },
      },
    },
    async (request): Promise<ShareLinkOpensResponse> => {
      const { user, site } = request;
      const link = await requireShareLink(ctx, user.id, site, request.params.linkId);
      const opens = await listShareLinkOpensForUser(ctx.db, user.id, site.id, link.id, SHARE_LOG_LIMIT);
      return { opens: opens.map(presentShareLinkOpen) };
    },
  );

  app.put<SiteParams>(
    "/api/sites/:siteId/visibility",
    {
      preHandler: guard.ownSiteForChange,
      config: {
        token: "full",
        doc: {
          summary: "Make a site public or private",
          description: "A private site answers only browsers that opened one of its share links.",
          tags: ["Share links"],
          body: UpdateVisibilityRequest,
          response: { 200: SiteResponse },
          errors: { 403: "The user's plan does not include private sites (pro_required); the message names the plan that does." },
        },
      },
    },
    async (request): Promise<SiteResponse> => {
      const { user, site } = request;
      await setSiteVisibility(ctx, user.id, site.id, parseBody(request, UpdateVisibilityRequest).visibility);
      return presentSite(await requireSiteSummary(ctx.db, user.id, site.id), ctx.urls);
    },
  );
}
