// Custom domains (Pro): the routes listed in common/domains.ts, and /internal/tls/ask for Caddy.
import type { FastifyInstance } from "fastify";
import { AddDomainRequest, DOMAIN_TEXT, type DomainListResponse, type DomainResponse } from "../../../common/domains";
import type { AppContext } from "../../context";
import { getDomainForUser, listDomainsForSite, listDomainsForUser } from "../../db/repositories/domains";
import { normalizeHost } from "../../http/host";
import { AppError } from "../../errors";
import { addDomain, checkDomainAgain, removeDomain } from "../../services/manageDomains";
import { requireSite, requireSiteForChange } from "../../services/siteAccess";
import { requireUser } from "../session";
import { parseBody } from "../validate";
import { presentDomain } from "./present";

export async function domainRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get("/api/domains", async (request): Promise<DomainListResponse> => {
    const user = await requireUser(ctx, request);
    return { domains: (await listDomainsForUser(ctx.db, user.id)).map((domain) => presentDomain(domain, ctx)) };
  });

  app.get<{ Params: { siteId: string } }>("/api/sites/:siteId/domains", async (request): Promise<DomainListResponse> => {
    const user = await requireUser(ctx, request);
    const site = await requireSite(ctx.db, user.id, request.params.siteId);
    return { domains: (await listDomainsForSite(ctx.db, user.id, site.id)).map((domain) => presentDomain(domain, ctx)) };
  });

  app.post<{ Params: { siteId: string } }>("/api/sites/:siteId/domains", async (request, reply) => {
    const user = await requireUser(ctx, request);
    const site = await requireSiteForChange(ctx.db, user.id, request.params.siteId);
    const { domain } = parseBody(AddDomainRequest, request.body);
    const added = await addDomain(ctx, user.id, site, domain);
    const row = await getDomainForUser(ctx.db, user.id, added.id);
    if (!row) throw new AppError("domain_not_found", 404, DOMAIN_TEXT.notFound);
    return reply.status(201).send(presentDomain(row, ctx) satisfies DomainResponse);
  });

  app.post<{ Params: { domainId: string } }>("/api/domains/:domainId/check", async (request): Promise<DomainResponse> => {
    const user = await requireUser(ctx, request);
    return presentDomain(await checkDomainAgain(ctx, user.id, request.params.domainId), ctx);
  });

  app.delete<{ Params: { domainId: string } }>("/api/domains/:domainId", async (request, reply) => {
    const user = await requireUser(ctx, request);
    await removeDomain(ctx, user.id, request.params.domainId);
    return reply.status(204).send();
  });
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
