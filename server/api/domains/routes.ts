// Custom domains (Pro): the routes listed in common/domains.ts, and /internal/tls/ask for Caddy.
import type { FastifyInstance } from "fastify";
import { AddDomainRequest, DOMAIN_TEXT, DomainListResponse, DomainResponse } from "../../../common/domains";
import type { AppContext } from "../../context";
import { getDomainForUser, listDomainsForSite, listDomainsForUser } from "../../db/repositories/domains";
import { normalizeHost } from "../../http/host";
import { AppError } from "../../errors";
import { addDomain, checkDomainAgain, removeDomain } from "../../services/manageDomains";
import { routeGuards } from "../routeGuards";
import { parseBody } from "../validate";
import { presentDomain } from "./present";

type SiteParams = { Params: { siteId: string } };
type DomainParams = { Params: { domainId: string } };

export async function domainRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const guard = routeGuards(ctx);

  app.get(
    "/api/domains",
    {
      preHandler: guard.signedIn,
      config: {
        token: "full",
        doc: {
          summary: "List all your custom domains",
          description: "Newest first, across all your sites.",
          tags: ["Domains"],
          response: { 200: DomainListResponse },
        },
      },
    },
    async (request): Promise<DomainListResponse> => {
      return { domains: (await listDomainsForUser(ctx.db, request.user.id)).map((domain) => presentDomain(domain, ctx)) };
    },
  );

  app.get<SiteParams>(
    "/api/sites/:siteId/domains",
    {
      preHandler: guard.ownSite,
      config: { token: "full", doc: { summary: "List a site's custom domains", tags: ["Domains"], response: { 200: DomainListResponse } } },
    },
    async (request): Promise<DomainListResponse> => {
      return { domains: (await listDomainsForSite(ctx.db, request.user.id, request.site.id)).map((domain) => presentDomain(domain, ctx)) };
    },
  );

  app.post<SiteParams>(
    "/api/sites/:siteId/domains",
    {
      preHandler: guard.ownSiteForChange,
      config: {
        token: "full",
        doc: {
          summary: "Add a custom domain to a site",
          description:
            "Provisioning starts at once: create the DNS records in the answer, and the domain is checked, certified and served without further calls.",
          tags: ["Domains"],
          body: AddDomainRequest,
          response: { 201: DomainResponse },
          errors: {
            403: "The user's plan does not include custom domains (pro_required); the message names the plan that does.",
            409: "The domain is taken, already attached, or over the account's cap.",
          },
        },
      },
    },
    async (request, reply) => {
      const { user, site } = request;
      const { domain } = parseBody(request, AddDomainRequest);
      const added = await addDomain(ctx, user.id, site, domain);
      const row = await getDomainForUser(ctx.db, user.id, added.id);
      if (!row) throw new AppError("domain_not_found", 404, DOMAIN_TEXT.notFound);
      return reply.status(201).send(presentDomain(row, ctx) satisfies DomainResponse);
    },
  );

  // A domain's own routes: the services find it among the user's (404) and refuse it while its site is deleted (409).
  app.post<DomainParams>(
    "/api/domains/:domainId/check",
    {
      preHandler: guard.signedIn,
      config: {
        token: "full",
        doc: {
          summary: "Check a domain's DNS again",
          description: "Restarts provisioning from the DNS check.",
          tags: ["Domains"],
          response: { 200: DomainResponse },
          errors: { 404: "No such domain of yours.", 409: "The domain's site is deleted." },
        },
      },
    },
    async (request): Promise<DomainResponse> => {
      return presentDomain(await checkDomainAgain(ctx, request.user.id, request.params.domainId), ctx);
    },
  );

  app.delete<DomainParams>(
    "/api/domains/:domainId",
    {
      preHandler: guard.signedIn,
      config: {
        token: "full",
        doc: {
          summary: "Remove a custom domain",
          tags: ["Domains"],
          response: { 204: { description: "No longer served, at once." } },
          errors: { 404: "No such domain of yours.", 409: "The domain's site is deleted." },
        },
      },
    },
    async (request, reply) => {
      await removeDomain(ctx, request.user.id, request.params.domainId);
      return reply.status(204).send();
    },
  );
}

/**
 * Caddy's on-demand TLS asks here before it requests a certificate for a name: 200 for an active,
 * verified custom domain, 404 for anything else. From memory, with no query and no DNS lookup, so
 * a flood of handshakes for random names costs nothing. Site hosts and custom domains never reach
 * Fastify (the edge takes them), so this is answered on the dashboard's side only.
 */
export async function tlsAskRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get<{ Querystring: { domain?: unknown } }>("/internal/tls/ask", async (request, reply) => {
    const { domain } = request.query;
    const host = typeof domain === "string" ? normalizeHost(domain) : undefined;
    const active = host !== undefined && ctx.domains.target(host) !== undefined;
    return reply
      .status(active ? 200 : 404)
      .header("cache-control", "no-store")
      .type("text/plain; charset=utf-8")
      .send(active ? "ok\n" : "not found\n");
  });
}
