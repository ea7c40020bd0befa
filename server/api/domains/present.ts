// Rows → the shapes of common/domains.ts.
import type { DomainResponse } from "../../../common/domains";
import type { AppContext } from "../../context";
import type { DomainWithSite } from "../../db/repositories/domains";
import { domainRecords } from "../../services/checkDomainDns";

/** A custom domain is reached with the dashboard's scheme and port, as the sites are (sites/urls.ts). */
export function domainUrl(appUrl: string, hostname: string): string {
  const app = new URL(appUrl);
  return `${app.protocol}//${hostname}${app.port ? `:${app.port}` : ""}/`;
}

export function presentDomain(domain: DomainWithSite, ctx: Pick<AppContext, "env" | "urls">): DomainResponse {
  const target = { hostname: domain.hostname, token: domain.verification_token, siteHost: ctx.urls.host(domain.subdomain) };
  return {
    id: domain.id,
    site_id: domain.site_id,
    site_name: domain.site_name,
    hostname: domain.hostname,
    status: domain.status,
    error: domain.status === "failed" ? domain.error : null,
    attempts: domain.attempts,
    records: domainRecords(target, ctx.env.publicIps),
    url: domainUrl(ctx.env.appUrl, domain.hostname),
    verified_at: domain.verified_at?.toISOString() ?? null,
    activated_at: domain.activated_at?.toISOString() ?? null,
    created_at: domain.created_at.toISOString(),
  };
}
