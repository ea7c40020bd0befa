import { eq } from "drizzle-orm";
import type { Db } from "../client";
import { contactMessages } from "../schema";

export type ContactMessage = typeof contactMessages.$inferSelect;

export async function insertContactMessage(
  db: Db,
  values: { name: string; email: string; subject: string; message: string },
): Promise<ContactMessage> {
  const [row] = await db.insert(contactMessages).values(values).returning();
  return row!;
}

export async function markContactMessageDelivered(db: Db, id: string): Promise<void> {
  await db.update(contactMessages).set({ delivered_at: new Date(), delivery_error: null }).where(eq(contactMessages.id, id));
}

export async function markContactMessageFailed(db: Db, id: string, error: string): Promise<void> {
  await db.update(contactMessages).set({ delivery_error: error }).where(eq(contactMessages.id, id));
}
