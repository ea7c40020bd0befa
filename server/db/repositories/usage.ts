import { eq, sql } from "drizzle-orm";
import type { Executor } from "../client";
import { users } from "../schema";

/**
 * Bytes a user stores: every distinct blob referenced by their sites' current files or by their
 * kept deployments. A blob shared by ten versions counts once, which is what it costs. The figure
 * is stored (users.storage_used, from user_blobs) and kept by triggers in the transaction that
 * changes the rows (migrations/0020_user_blobs_presence.sql), so reading it is one primary-key lookup, and
 * inside a transaction it already includes that transaction's own changes.
 */
export async function storageUsedByUser(db: Executor, userId: string): Promise<number> {
  const [row] = await db.select({ used: users.storageUsed }).from(users).where(eq(users.id, userId));
  return Number(row?.used ?? 0);
}

/** Serialises quota checks of one user for the rest of the transaction. */
export async function lockUserQuota(tx: Executor, userId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${"quota:" + userId}))`);
}
