// better-auth's session rows, as the account's "Active sessions" list sees them. Session tokens
// never leave this file: the dashboard names a session by its id.
import { and, desc, eq, gt, ne, sql } from "drizzle-orm";
import type { Executor } from "../client";
import { sessions } from "../schema";

export interface AccountSession {
  id: string;
  userAgent: string | null;
  ipAddress: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** The user's sessions that have not expired, most recently active first. */
export async function listActiveSessionsForUser(db: Executor, userId: string, now: Date): Promise<AccountSession[]> {
  return db
    .select({
      id: sessions.id,
      userAgent: sessions.userAgent,
      ipAddress: sessions.ipAddress,
      createdAt: sessions.createdAt,
      updatedAt: sessions.updatedAt,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, now)))
    .orderBy(desc(sessions.updatedAt), desc(sessions.id));
}

/** Deletes one of the user's sessions; false when the user has no session with that id. */
export async function deleteSessionForUser(db: Executor, userId: string, sessionId: string): Promise<boolean> {
  const deleted = await db
    .delete(sessions)
    .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId)))
    .returning({ id: sessions.id });
  return deleted.length > 0;
}

/** Deletes every session of the user but `keepSessionId`; resolves to how many went. */
export async function deleteOtherSessionsForUser(db: Executor, userId: string, keepSessionId: string): Promise<number> {
  const deleted = await db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId)))
    .returning({ id: sessions.id });
  return deleted.length;
}

/** Minutes between two "last activity" writes of one session. */
export const SESSION_TOUCH_MINUTES = 5;

/**
 * Records activity on a session. better-auth only writes a session when it extends it (once a
 * day); the guard keeps this to one write per session every few minutes, however many requests.
 */
export async function touchSession(db: Executor, token: string): Promise<void> {
  await db
    .update(sessions)
    .set({ updatedAt: sql`now()` })
    .where(and(eq(sessions.token, token), sql`${sessions.updatedAt} < now() - ${sql.raw(`interval '${SESSION_TOUCH_MINUTES} minutes'`)}`));
}
