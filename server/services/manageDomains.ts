// Custom domains (Pro): adding one to a site, "Check again", and removing one. Adding and
// checking need a plan with custom domains; removing is allowed on any plan, so an owner who went
// back to Free can still let a domain go. Provisioning itself is the worker's job
// (provisionDomains.ts); these only write the row's schedule and say what changed.
import { randomBytes } from "node:crypto";
import { DOMAIN_TEXT } from "../../common/domains";
import type { AppContext } from "../context";
import {
  countDomainsForUser,
  deleteDomainForUser,
  getDomainForUser,
  getDomainOfUserByHostname,
  insertDomain,
  isHostnameVerifiedByOther,
  isUniqueViolation,
  replaceSiteDomain,
  restartDomainForUser,
  subdomainsOfSites,
  type Domain,
  type DomainWithSite,
} from "../db/repositories/domains";
import { AppError } from "../errors";
import { requireRoom } from "./accountCaps";
import { requireFeature } from "./planPolicy";
import { UUID, requireNotDeleted, requireSiteForChange } from "./siteAccess";

type DomainContext = Pick<AppContext, "db" | "plans" | "env" | "events">;

const notFound = () => new AppError("domain_not_found", 404, DOMAIN_TEXT.notFound);

/** The owner's domain, for a change: 404 when it is not theirs, 409 while its site is deleted. */
async function requireDomain(ctx: DomainContext, userId: string, domainId: string): Promise<DomainWithSite> {
  const domain = UUID.test(domainId) ? await getDomainForUser(ctx.db, userId, domainId) : undefined;
  if (!domain) throw notFound();
  await requireSiteForChange(ctx.db, userId, domain.site_id);
  return domain;
}

/** Names Berth answers for itself: the dashboard's host, the sites domain and every name under it. */
export function isBerthHostname(env: Pick<AppContext["env"], "appUrl" | "sitesDomain">, hostname: string): boolean {
  const appHost = new URL(env.appUrl).hostname.toLowerCase();
  return hostname === appHost || hostname === env.sitesDomain || hostname.endsWith(`.${env.sitesDomain}`);
}

function emitDomain(ctx: DomainContext, domain: Domain, status: Domain["status"] | null): void {
  ctx.events.emit("domain", { userId: domain.user_id, siteId: domain.site_id, domainId: domain.id, hostname: domain.hostname, status });
}

/**
 * Claims `hostname` (already normalized) for the owner's site; its first DNS check is due at once.
 * The caller has checked that the site is the user's (requireSite).
 */
export async function addDomain(
  ctx: DomainContext,
  userId: string,
  site: { id: string; is_deleted: boolean },
  hostname: string,
  now = new Date(),
): Promise<Domain> {
  await requireFeature(ctx, userId, "customDomains");
  requireNotDeleted(site);
  if (isBerthHostname(ctx.env, hostname)) throw new AppError("domain_reserved", 400, DOMAIN_TEXT.sitesDomain);
  if (await getDomainOfUserByHostname(ctx.db, userId, hostname)) throw new AppError("domain_attached", 409, DOMAIN_TEXT.attached);
  // Unverified claims of other accounts do not block: whoever proves the TXT record first wins.
  if (await isHostnameVerifiedByOther(ctx.db, userId, hostname)) throw new AppError("domain_taken", 409, DOMAIN_TEXT.taken);
  let domain: Domain;
  try {
    domain = await ctx.db.transaction(async (tx) => {
      // Every domain queues DNS checks and a certificate: the account's cap bounds that work.
      await requireRoom(tx, ctx.env.caps, "customDomainsPerAccount", userId, (db) => countDomainsForUser(db, userId));
      return insertDomain(tx, {
        user_id: userId,
        site_id: site.id,
        hostname,
        verification_token: `berth-${randomBytes(16).toString("hex")}`,
        now,
      });
    });
  } catch (error) {
    // Two adds of the same name at once: the (user, hostname) constraint lets one through.
    if (isUniqueViolation(error)) throw new AppError("domain_attached", 409, DOMAIN_TEXT.attached);
    throw error;
  }
  emitDomain(ctx, domain, domain.status);
  return domain;
}

/** "Check again": provisioning starts over from the DNS check. An active domain is returned as it is. */
export async function checkDomainAgain(ctx: DomainContext, userId: string, domainId: string, now = new Date()): Promise<DomainWithSite> {
  const domain = await requireDomain(ctx, userId, domainId);
  await requireFeature(ctx, userId, "customDomains");
  const restarted = await restartDomainForUser(ctx.db, userId, domainId, now);
  if (restarted) emitDomain(ctx, restarted, restarted.status);
  return (await getDomainForUser(ctx.db, userId, domainId)) ?? domain;
}

/** Removes the claim; the edge stops serving the hostname with the next request. */
export async function removeDomain(ctx: DomainContext, userId: string, domainId: string): Promise<void> {
  await requireDomain(ctx, userId, domainId);
  const removed = await ctx.db.transaction(async (tx) => {
    const domain = await deleteDomainForUser(tx, userId, domainId);
    if (!domain) return undefined;
    const siteChanged = await replaceSiteDomain(tx, domain.site_id, domain.hostname);
    return { domain, siteChanged };
  });
  if (!removed) throw notFound();
  const { domain, siteChanged } = removed;
  emitDomain(ctx, domain, null);
  if (!siteChanged) return;
  // The site showed this domain as its address; dashboards and caches learn of the new one.
  const subdomain = (await subdomainsOfSites(ctx.db, [domain.site_id])).get(domain.site_id);
  if (subdomain) ctx.events.emit("site", { userId, siteId: domain.site_id, subdomain });
}
