import { sql } from "drizzle-orm";
import type { Executor } from "../client";

/**
 * Serialises, for the rest of the transaction, every add that counts against one account's caps
 * (sites, custom domains, share links): the count and the insert then happen as one step, so two
 * adds at the cap cannot both see room. A key of its own, not the quota's: uploads take the quota
 * lock after this one, and nothing takes this one after the quota's, so they cannot deadlock.
 */
export async function lockAccountCaps(tx: Executor, userId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${"caps:" + userId}))`);
}
