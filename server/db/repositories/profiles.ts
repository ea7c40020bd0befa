import { eq } from "drizzle-orm";
import type { Db } from "../client";
import { profiles } from "../schema";

export type Profile = typeof profiles.$inferSelect;

export async function createProfile(db: Db, values: { id: string; full_name: string | null }): Promise<void> {
  await db.insert(profiles).values(values).onConflictDoNothing();
}

export async function getProfileForUser(db: Db, userId: string): Promise<Profile | undefined> {
  const [row] = await db.select().from(profiles).where(eq(profiles.id, userId));
  return row;
}

export async function getPlanIdForUser(db: Db, userId: string): Promise<"free" | "pro"> {
  const [row] = await db.select({ plan: profiles.plan }).from(profiles).where(eq(profiles.id, userId));
  return row?.plan ?? "free";
}
