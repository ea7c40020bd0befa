// Custom domains: the owner's claims on hostnames, their provisioning job (the state lives in the
// row: status, attempts, next_attempt_at) and what the edge serves.
import { and, desc, eq, getTableColumns, inArray, isNotNull, isNull, lte, ne, sql } from "drizzle-orm";
import type { DomainStatus } from "../../../common/domains";
import type { Executor } from "../client";
import { domains, profiles, sites } from "../schema";

export type Domain = typeof domains.$inferSelect;

/** A domain with what the dashboard shows beside it, and what its records point at. */
export type DomainWithSite = Domain & { site_name: string; subdomain: string };

/** An active domain the edge may serve: the site is not deleted and its owner is not banned. */
export interface ServedDomain {
  hostname: string;
  siteId: string;
  subdomain: string;
}

/** Statuses the provisioning job still has work for. */
const RUNNING: DomainStatus[] = ["pending", "dns_check", "certificate"];

const withSite = { ...getTableColumns(domains), site_name: sites.name, subdomain: sites.subdomain };

export async function listDomainsForUser(db: Executor, userId: string): Promise<DomainWithSite[]> {
  return db
    .select(withSite)
    .from(domains)
    .innerJoin(sites, eq(sites.id, domains.site_id))
    .where(eq(domains.user_id, userId))
    .orderBy(desc(domains.created_at), desc(domains.id));
}

export async function listDomainsForSite(db: Executor, userId: string, siteId: string): Promise<DomainWithSite[]> {
  return db
    .select(withSite)
    .from(domains)
    .innerJoin(sites, eq(sites.id, domains.site_id))
    .where(and(eq(domains.site_id, siteId), eq(domains.user_id, userId)))
    .orderBy(desc(domains.created_at), desc(domains.id));
}

export async function getDomainForUser(db: Executor, userId: string, domainId: string): Promise<DomainWithSite | undefined> {
  const [row] = await db
    .select(withSite)
    .from(domains)
    .innerJoin(sites, eq(sites.id, domains.site_id))
    .where(and(eq(domains.id, domainId), eq(domains.user_id, userId)));
  return row;
}

/** The user's claim on this hostname, on whichever of their sites. */
export async function getDomainOfUserByHostname(db: Executor, userId: string, hostname: string): Promise<Domain | undefined> {
  const [row] = await db
    .select()
    .from(domains)
    .where(and(eq(domains.user_id, userId), eq(domains.hostname, hostname)));
  return row;
}

/** Every claim of the user, on any of their sites, whatever its status: what the cap counts. */
export async function countDomainsForUser(db: Executor, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(domains)
    .where(eq(domains.user_id, userId));
  return Number(row?.n ?? 0);
}

/** Whether another account has proved it owns this hostname. */
export async function isHostnameVerifiedByOther(db: Executor, userId: string, hostname: string): Promise<boolean> {
  const [row] = await db
    .select({ id: domains.id })
    .from(domains)
    .where(and(eq(domains.hostname, hostname), isNotNull(domains.verified_at), ne(domains.user_id, userId)));
  return row !== undefined;
}

/** A new claim, due for its first DNS check at `now`. */
export async function insertDomain(
  db: Executor,
  values: { user_id: string; site_id: string; hostname: string; verification_token: string; now: Date },
): Promise<Domain> {
  const { now, ...rest } = values;
  const [row] = await db
    .insert(domains)
    .values({ ...rest, status: "pending", attempts: 0, next_attempt_at: now, created_at: now, updated_at: now })
    .returning();
  return row!;
}

export async function deleteDomainForUser(db: Executor, userId: string, domainId: string): Promise<Domain | undefined> {
  const [row] = await db
    .delete(domains)
    .where(and(eq(domains.id, domainId), eq(domains.user_id, userId)))
    .returning();
  return row;
}

/** "Check again": provisioning starts over from the DNS check, due at once. Active domains are left alone. */
export async function restartDomainForUser(db: Executor, userId: string, domainId: string, now: Date): Promise<Domain | undefined> {
  const [row] = await db
    .update(domains)
    .set({ status: "pending", attempts: 0, error: null, next_attempt_at: now, updated_at: now })
    .where(and(eq(domains.id, domainId), eq(domains.user_id, userId), ne(domains.status, "active")))
    .returning();
  return row;
}

/**
 * Takes up to `limit` domains whose next step is due, for this worker alone: their
 * next_attempt_at moves to `leaseUntil`, which is also the token the result is written back
 * with. Rows another worker is claiming are skipped (SKIP LOCKED); one whose worker died becomes
 * due again when its lease runs out. Domains of deleted sites wait until the site is restored.
 */
export async function claimDueDomains(db: Executor, now: Date, leaseUntil: Date, limit: number): Promise<Domain[]> {
  const due = db
    .select({ id: domains.id })
    .from(domains)
    .innerJoin(sites, eq(sites.id, domains.site_id))
    .where(and(inArray(domains.status, RUNNING), lte(domains.next_attempt_at, now), eq(sites.is_deleted, false)))
    .orderBy(domains.next_attempt_at)
    .limit(limit)
    .for("update", { of: domains, skipLocked: true });
  return db
    .update(domains)
    .set({ next_attempt_at: leaseUntil })
    .where(and(inArray(domains.id, due), inArray(domains.status, RUNNING)))
    .returning();
}

/** The subdomains the claimed domains' records must point at, by site id. */
export async function subdomainsOfSites(db: Executor, siteIds: string[]): Promise<Map<string, string>> {
  if (siteIds.length === 0) return new Map();
  const rows = await db.select({ id: sites.id, subdomain: sites.subdomain }).from(sites).where(inArray(sites.id, siteIds));
  return new Map(rows.map((row) => [row.id, row.subdomain]));
}

export type DomainStep = Partial<Pick<Domain, "status" | "attempts" | "next_attempt_at" | "error" | "verified_at" | "activated_at">>;

/**
 * Writes a step's outcome, only while the claim still holds (next_attempt_at is the lease): a
 * "Check again" or a removal in the meantime wins, and the outcome is dropped (undefined).
 */
export async function recordDomainStep(db: Executor, domainId: string, leaseUntil: Date, step: DomainStep, now: Date): Promise<Domain | undefined> {
  const [row] = await db
    .update(domains)
    .set({ ...step, updated_at: now })
    .where(and(eq(domains.id, domainId), eq(domains.next_attempt_at, leaseUntil)))
    .returning();
  return row;
}

/**
 * The DNS step's success: the claim now owns the hostname. "taken" when another account's claim
 * was verified first (the partial unique index on verified hostnames refuses a second one).
 */
export async function recordDomainVerified(
  db: Executor,
  domainId: string,
  leaseUntil: Date,
  step: DomainStep & { verified_at: Date },
  now: Date,
): Promise<Domain | "taken" | undefined> {
  try {
    return await recordDomainStep(db, domainId, leaseUntil, step, now);
  } catch (error) {
    if (isUniqueViolation(error)) return "taken";
    throw error;
  }
}

/** PostgreSQL's unique_violation, as either driver reports it (drizzle wraps it in `cause`). */
export function isUniqueViolation(error: unknown): boolean {
  const { code, cause } = error as { code?: string; cause?: { code?: string } };
  return (code ?? cause?.code) === "23505";
}

/** The site's address becomes this domain, unless it already has one. Returns whether it changed. */
export async function setSiteDomainIfNone(db: Executor, siteId: string, hostname: string): Promise<boolean> {
  const rows = await db
    .update(sites)
    .set({ domain: hostname, updated_at: new Date() })
    .where(and(eq(sites.id, siteId), isNull(sites.domain)))
    .returning({ id: sites.id });
  return rows.length > 0;
}

/**
 * After a domain is removed: a site that showed it shows another active domain of its own, or
 * none. Returns whether the site changed.
 */
export async function replaceSiteDomain(db: Executor, siteId: string, removed: string): Promise<boolean> {
  const next = sql`(select d.hostname from ${domains} d where d.site_id = ${siteId} and d.status = 'active' and d.hostname <> ${removed} order by d.activated_at limit 1)`;
  const rows = await db
    .update(sites)
    .set({ domain: next, updated_at: new Date() })
    .where(and(eq(sites.id, siteId), eq(sites.domain, removed)))
    .returning({ id: sites.id });
  return rows.length > 0;
}

const servedColumns = { hostname: domains.hostname, siteId: sites.id, subdomain: sites.subdomain };

/** Every domain the edge serves: active and verified, the site not deleted, its owner not banned. */
export async function listServedDomains(db: Executor): Promise<ServedDomain[]> {
  return db
    .select(servedColumns)
    .from(domains)
    .innerJoin(sites, eq(sites.id, domains.site_id))
    .leftJoin(profiles, eq(profiles.id, sites.user_id))
    .where(and(eq(domains.status, "active"), isNotNull(domains.verified_at), eq(sites.is_deleted, false), isNull(profiles.banned_at)));
}

/** The same, for one site: what the edge serves for it after the site or one of its domains changed. */
export async function listServedDomainsOfSite(db: Executor, siteId: string): Promise<ServedDomain[]> {
  return db
    .select(servedColumns)
    .from(domains)
    .innerJoin(sites, eq(sites.id, domains.site_id))
    .leftJoin(profiles, eq(profiles.id, sites.user_id))
    .where(
      and(
        eq(domains.site_id, siteId),
        eq(domains.status, "active"),
        isNotNull(domains.verified_at),
        eq(sites.is_deleted, false),
        isNull(profiles.banned_at),
      ),
    );
}
