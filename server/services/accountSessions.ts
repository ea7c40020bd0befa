// The account's "Active sessions": every signed-in browser of the user, named by its user agent,
// with the one making the request first. Revoking deletes better-auth's session row; Berth reads
// that row on every request (no cookie cache), so the browser is signed out at its next request.
import type { AppContext } from "../context";
import { AppError } from "../errors";
import { deleteOtherSessionsForUser, deleteSessionForUser, listActiveSessionsForUser } from "../db/repositories/accountSessions";
import { parseUserAgent } from "./userAgent";
import { ACCOUNT_TEXT, type SessionInfo } from "../../common/account";

type SessionsContext = Pick<AppContext, "db">;

export async function listAccountSessions(ctx: SessionsContext, userId: string, currentSessionId: string, now = new Date()): Promise<SessionInfo[]> {
  const rows = await listActiveSessionsForUser(ctx.db, userId, now);
  const sessions = rows.map((row): SessionInfo => ({
    id: row.id,
    current: row.id === currentSessionId,
    ...parseUserAgent(row.userAgent),
    ipAddress: row.ipAddress || null,
    createdAt: row.createdAt.toISOString(),
    lastActiveAt: row.updatedAt.toISOString(),
  }));
  return [...sessions.filter((s) => s.current), ...sessions.filter((s) => !s.current)];
}

/** Signs one of the user's sessions out; someone else's session is the same 404 as none. */
export async function revokeAccountSession(ctx: SessionsContext, userId: string, sessionId: string): Promise<void> {
  if (!(await deleteSessionForUser(ctx.db, userId, sessionId))) throw new AppError("session_not_found", 404, ACCOUNT_TEXT.sessionNotFound);
}

/** Signs out every session of the user but the current one; resolves to how many went. */
export function revokeOtherAccountSessions(ctx: SessionsContext, userId: string, currentSessionId: string): Promise<number> {
  return deleteOtherSessionsForUser(ctx.db, userId, currentSessionId);
}
