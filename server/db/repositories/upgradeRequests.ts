// Requests for a higher plan: one pending per user (a partial unique index), answered once by an admin.
import { and, asc, count, desc, eq, sql } from "drizzle-orm";
import type { Executor } from "../client";
import { profiles, upgradeRequests, users } from "../schema";

export type UpgradeRequestRow = typeof upgradeRequests.$inferSelect;

/** The new pending request for `plan`, or undefined when the user has one open already. */
export async function insertUpgradeRequest(db: Executor, userId: string, plan: string): Promise<UpgradeRequestRow | undefined> {
  const [row] = await db.insert(upgradeRequests).values({ user_id: userId, plan }).onConflictDoNothing().returning();
  return row;
}

/** The user's newest request, whatever its state. */
export async function getLatestUpgradeRequestOfUser(db: Executor, userId: string): Promise<UpgradeRequestRow | undefined> {
  const [row] = await db
    .select()
    .from(upgradeRequests)
    .where(eq(upgradeRequests.user_id, userId))
    .orderBy(desc(upgradeRequests.created_at), desc(upgradeRequests.id))
    .limit(1);
  return row;
}

/** `userPlan` is null for a user without a profile row, who is on the server's default plan. */
export type PendingUpgradeRow = UpgradeRequestRow & { email: string; name: string; userPlan: string | null };

const pendingColumns = {
  request: upgradeRequests,
  email: users.email,
  name: sql<string>`coalesce(nullif(btrim(${profiles.full_name}), ''), ${users.name})`,
  userPlan: profiles.plan,
};

/** A page of pending requests with their users, oldest first. */
export async function listPendingUpgradeRequests(db: Executor, options: { limit: number; offset: number }): Promise<PendingUpgradeRow[]> {
  const rows = await db
    .select(pendingColumns)
    .from(upgradeRequests)
    .innerJoin(users, eq(users.id, upgradeRequests.user_id))
    .leftJoin(profiles, eq(profiles.id, upgradeRequests.user_id))
    .where(eq(upgradeRequests.status, "pending"))
    .orderBy(asc(upgradeRequests.created_at), asc(upgradeRequests.id))
    .limit(options.limit)
    .offset(options.offset);
  return rows.map(({ request, ...user }) => ({ ...request, ...user }));
}

export async function countPendingUpgradeRequests(db: Executor): Promise<number> {
  const [row] = await db.select({ n: count() }).from(upgradeRequests).where(eq(upgradeRequests.status, "pending"));
  return row?.n ?? 0;
}

/**
 * Answers a pending request, in one conditional update: of two admins answering at once, one wins.
 * Undefined when there is no such request or it was answered already.
 */
export async function answerUpgradeRequest(
  db: Executor,
  id: string,
  answer: { status: "approved" | "declined"; adminId: string; at: Date },
): Promise<UpgradeRequestRow | undefined> {
  const [row] = await db
    .update(upgradeRequests)
    .set({ status: answer.status, answered_at: answer.at, answered_by: answer.adminId })
    .where(and(eq(upgradeRequests.id, id), eq(upgradeRequests.status, "pending")))
    .returning();
  return row;
}

export async function getUpgradeRequestById(db: Executor, id: string): Promise<UpgradeRequestRow | undefined> {
  const [row] = await db.select().from(upgradeRequests).where(eq(upgradeRequests.id, id));
  return row;
}
