import { and, desc, eq, getTableColumns, isNull, sql } from "drizzle-orm";
import type { Executor } from "../client";
import { profiles, sites } from "../schema";

export type Site = typeof sites.$inferSelect;

/** A site with what the dashboard shows beside it: the live version and the size of its files. */
export type SiteSummary = Site & { live_version: number | null; file_count: number; size: number };

// Written out by hand: inside a correlated subquery drizzle leaves columns unqualified, and
// "site_id = id" would then compare two columns of site_files.
const summaryColumns = {
  live_version: sql<number | null>`(select d.version from deployments d where d.id = "sites"."live_deployment_id")`,
  file_count: sql<number>`(select count(*)::int from site_files f where f.site_id = "sites"."id" and not f.is_folder)`,
  size: sql<number>`(select coalesce(sum(f.file_size), 0)::bigint from site_files f where f.site_id = "sites"."id")`,
};

function toSummary(row: Site & { live_version: unknown; file_count: unknown; size: unknown }): SiteSummary {
  return {
    ...row,
    live_version: row.live_version === null ? null : Number(row.live_version),
    file_count: Number(row.file_count),
    size: Number(row.size),
  };
}

export async function listSitesForUser(db: Executor, userId: string): Promise<SiteSummary[]> {
  const rows = await db
    .select({ ...getTableColumns(sites), ...summaryColumns })
    .from(sites)
    .where(eq(sites.user_id, userId))
    .orderBy(desc(sites.created_at), desc(sites.id));
  return rows.map(toSummary);
}

export async function getSiteSummaryForUser(db: Executor, userId: string, siteId: string): Promise<SiteSummary | undefined> {
  const [row] = await db
    .select({ ...getTableColumns(sites), ...summaryColumns })
    .from(sites)
    .where(and(eq(sites.id, siteId), eq(sites.user_id, userId)));
  return row ? toSummary(row) : undefined;
}

/** The owner's site, its row only: what a request on the site needs, without its files' totals. */
export async function getSiteForUser(db: Executor, userId: string, siteId: string): Promise<Site | undefined> {
  const [row] = await db
    .select()
    .from(sites)
    .where(and(eq(sites.id, siteId), eq(sites.user_id, userId)));
  return row;
}

/** The owner's site, locked for the rest of the transaction (publishing, deleting). */
export async function lockSiteForUser(tx: Executor, userId: string, siteId: string): Promise<Site | undefined> {
  const [row] = await tx
    .select()
    .from(sites)
    .where(and(eq(sites.id, siteId), eq(sites.user_id, userId)))
    .for("update");
  return row;
}

export async function insertSite(
  tx: Executor,
  values: { name: string; description: string | null; user_id: string; subdomain: string },
): Promise<Site> {
  const [row] = await tx
    .insert(sites)
    .values({ ...values, status: "pending" })
    .returning();
  return row!;
}

export async function updateSiteDetails(
  db: Executor,
  userId: string,
  siteId: string,
  values: { name: string; description?: string | null },
): Promise<Site | undefined> {
  const [row] = await db
    .update(sites)
    .set({ ...values, updated_at: new Date() })
    .where(and(eq(sites.id, siteId), eq(sites.user_id, userId)))
    .returning();
  return row;
}

/** Sets or clears the site's expiry and go-live times; scoped by the owner. */
export async function updateSiteSchedule(
  db: Executor,
  userId: string,
  siteId: string,
  values: { expires_at: Date | null; publish_at: Date | null },
): Promise<Site | undefined> {
  const [row] = await db
    .update(sites)
    .set({ ...values, updated_at: new Date() })
    .where(and(eq(sites.id, siteId), eq(sites.user_id, userId)))
    .returning();
  return row;
}

/** Sets (a new scrypt hash) or clears the site's password; either way its version goes up. */
export async function updateSitePassword(db: Executor, userId: string, siteId: string, passwordHash: string | null): Promise<Site | undefined> {
  const [row] = await db
    .update(sites)
    .set({ password_hash: passwordHash, password_version: sql`${sites.password_version} + 1`, updated_at: new Date() })
    .where(and(eq(sites.id, siteId), eq(sites.user_id, userId)))
    .returning();
  return row;
}

/** "public" or "private" (only browsers with a share link); scoped by the owner. */
export async function updateSiteVisibility(db: Executor, userId: string, siteId: string, visibility: Site["visibility"]): Promise<Site | undefined> {
  const [row] = await db
    .update(sites)
    .set({ visibility, updated_at: new Date() })
    .where(and(eq(sites.id, siteId), eq(sites.user_id, userId)))
    .returning();
  return row;
}

export async function markSiteDeleted(db: Executor, userId: string, siteId: string, now: Date): Promise<Site | undefined> {
  const [row] = await db
    .update(sites)
    .set({ is_deleted: true, deleted_at: now, status: "deleted", updated_at: now })
    .where(and(eq(sites.id, siteId), eq(sites.user_id, userId), eq(sites.is_deleted, false)))
    .returning();
  return row;
}

/** Restores a deleted site: active again when it has a live deployment, otherwise pending. */
export async function restoreDeletedSite(db: Executor, userId: string, siteId: string): Promise<Site | undefined> {
  const [row] = await db
    .update(sites)
    .set({
      is_deleted: false,
      deleted_at: null,
      status: sql`case when ${sites.live_deployment_id} is null then 'pending' else 'active' end`,
      updated_at: new Date(),
    })
    .where(and(eq(sites.id, siteId), eq(sites.user_id, userId), eq(sites.is_deleted, true)))
    .returning();
  return row;
}

export async function setLiveDeployment(tx: Executor, siteId: string, deploymentId: string): Promise<void> {
  await tx
    .update(sites)
    .set({
      live_deployment_id: deploymentId,
      status: sql`case when ${sites.is_deleted} then 'deleted' else 'active' end`,
      updated_at: new Date(),
    })
    .where(eq(sites.id, siteId));
}

/**
 * What the edge needs to serve a host: the site with this subdomain, unless it is marked for
 * deletion or its owner is banned. One query; the edge caches the answer until a `site` event.
 */
export async function getServableSiteBySubdomain(db: Executor, subdomain: string): Promise<Site | undefined> {
  const [row] = await db
    .select(getTableColumns(sites))
    .from(sites)
    .leftJoin(profiles, eq(profiles.id, sites.user_id))
    .where(and(eq(sites.subdomain, subdomain), eq(sites.is_deleted, false), isNull(profiles.banned_at)));
  return row;
}

/** Deleted sites whose grace period has ended, locked so that only one worker purges each. */
export async function lockSitesDueForPurge(tx: Executor, before: Date, limit: number): Promise<Site[]> {
  return (
    tx
      .select()
      .from(sites)
      .where(and(eq(sites.is_deleted, true), sql`${sites.deleted_at} <= ${before.toISOString()}`))
      // Purging takes each owner's users row (the storage figure's triggers): in one order for
      // every worker, so two purges never wait on each other in a circle.
      .orderBy(sites.user_id, sites.id)
      .limit(limit)
      .for("update", { skipLocked: true })
  );
}

export async function deleteSiteRow(tx: Executor, siteId: string): Promise<void> {
  await tx.delete(sites).where(eq(sites.id, siteId));
}

export async function countSitesForUser(db: Executor, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(sites)
    .where(eq(sites.user_id, userId));
  return Number(row?.n ?? 0);
}

/** Holds the site's row for the rest of the transaction, whoever owns it. */
export async function lockSite(tx: Executor, siteId: string): Promise<void> {
  await tx.select({ id: sites.id }).from(sites).where(eq(sites.id, siteId)).for("update");
}

/**
 * Claims the sites (not deleted) whose expiry falls after `now` and no later than `horizon` and
 * whose owner has not been told of that expiry yet: it is recorded as told in the same statement,
 * so each expiry is claimed once, by one worker. A new expiry time can be claimed again.
 */
export async function claimSitesExpiringBy(
  db: Executor,
  now: Date,
  horizon: Date,
): Promise<Pick<Site, "id" | "user_id" | "name" | "subdomain" | "expires_at">[]> {
  return db
    .update(sites)
    .set({ expiry_noticed_for: sql`${sites.expires_at}` })
    .where(
      and(
        eq(sites.is_deleted, false),
        sql`${sites.expires_at} > ${now.toISOString()}::timestamptz`,
        sql`${sites.expires_at} <= ${horizon.toISOString()}::timestamptz`,
        sql`${sites.expiry_noticed_for} is distinct from ${sites.expires_at}`,
      ),
    )
    .returning({ id: sites.id, user_id: sites.user_id, name: sites.name, subdomain: sites.subdomain, expires_at: sites.expires_at });
}

/** A site's owner and name, whatever its state: what a notice about it needs. */
export async function getSiteOwnerAndName(db: Executor, siteId: string): Promise<{ user_id: string; name: string } | undefined> {
  const [row] = await db.select({ user_id: sites.user_id, name: sites.name }).from(sites).where(eq(sites.id, siteId));
  return row;
}
