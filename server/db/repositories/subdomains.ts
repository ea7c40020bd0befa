import { and, eq, isNull, sql } from "drizzle-orm";
import type { Executor } from "../client";
import { rowsOf } from "../rows";
import { availableSubdomains } from "../schema";

export async function countAvailableSubdomains(db: Executor): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(availableSubdomains)
    .where(eq(availableSubdomains.is_assigned, false));
  return Number(row?.n ?? 0);
}

/** Every name ever issued or in use, so that new ones never collide. */
export async function takenSubdomains(db: Executor): Promise<Set<string>> {
  const result = await db.execute(sql`select subdomain from available_subdomains union select subdomain from sites`);
  return new Set(rowsOf<{ subdomain: string }>(result).map((r) => r.subdomain));
}

export async function insertAvailableSubdomains(db: Executor, names: string[]): Promise<number> {
  if (names.length === 0) return 0;
  const rows = await db
    .insert(availableSubdomains)
    .values(names.map((subdomain) => ({ subdomain })))
    .onConflictDoNothing()
    .returning({ subdomain: availableSubdomains.subdomain });
  return rows.length;
}

/** The name this user reserved and has not used yet. */
export async function getReservationForUser(db: Executor, userId: string): Promise<string | undefined> {
  const [row] = await db
    .update(availableSubdomains)
    .set({ reserved_at: new Date() })
    .where(and(eq(availableSubdomains.reserved_by, userId), isNull(availableSubdomains.assigned_site_id), eq(availableSubdomains.is_assigned, true)))
    .returning({ subdomain: availableSubdomains.subdomain });
  return row?.subdomain;
}

/**
 * Takes one free name for the user, atomically: SKIP LOCKED lets two requests at the same
 * instant take two different rows instead of the same one.
 */
export async function claimSubdomain(db: Executor, userId: string): Promise<string | undefined> {
  const result = await db.execute(sql`
    update available_subdomains set is_assigned = true, reserved_by = ${userId}, reserved_at = now()
    where subdomain = (
      select subdomain from available_subdomains
      where is_assigned = false
      order by created_at, subdomain
      limit 1
      for update skip locked
    )
    returning subdomain`);
  return rowsOf<{ subdomain: string }>(result)[0]?.subdomain;
}

/** Binds the user's reservation to the new site; false when the user holds no such reservation. */
export async function assignReservedSubdomain(tx: Executor, userId: string, subdomain: string, siteId: string): Promise<boolean> {
  const rows = await tx
    .update(availableSubdomains)
    .set({ assigned_site_id: siteId })
    .where(
      and(
        eq(availableSubdomains.subdomain, subdomain),
        eq(availableSubdomains.reserved_by, userId),
        isNull(availableSubdomains.assigned_site_id),
        eq(availableSubdomains.is_assigned, true),
      ),
    )
    .returning({ subdomain: availableSubdomains.subdomain });
  return rows.length === 1;
}

/** Returns reservations never used within the cutoff to the pool. */
export async function releaseStaleReservations(db: Executor, before: Date): Promise<number> {
  const rows = await db
    .update(availableSubdomains)
    .set({ is_assigned: false, reserved_by: null, reserved_at: null })
    .where(
      and(
        isNull(availableSubdomains.assigned_site_id),
        eq(availableSubdomains.is_assigned, true),
        sql`${availableSubdomains.reserved_at} < ${before.toISOString()}`,
      ),
    )
    .returning({ subdomain: availableSubdomains.subdomain });
  return rows.length;
}

/** A purged site's name goes back to the pool. */
export async function returnSubdomain(tx: Executor, subdomain: string): Promise<void> {
  await tx
    .update(availableSubdomains)
    .set({ is_assigned: false, assigned_site_id: null, reserved_by: null, reserved_at: null })
    .where(eq(availableSubdomains.subdomain, subdomain));
}
