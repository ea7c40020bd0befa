// better-auth's verification rows that Berth acts on itself. Password-reset tokens are stored as
// `reset-password:<token>` identifiers (in plain: no `verification.storeIdentifier` option is set)
// whose value is the user's id.
import { and, eq, like } from "drizzle-orm";
import type { Executor } from "../client";
import { verifications } from "../schema";

export const RESET_TOKEN_PREFIX = "reset-password:";

/** Every outstanding password-reset token of the user; returns how many there were. */
export async function deleteResetTokensOfUser(db: Executor, userId: string): Promise<number> {
  const rows = await db
    .delete(verifications)
    .where(and(like(verifications.identifier, `${RESET_TOKEN_PREFIX}%`), eq(verifications.value, userId)))
    .returning({ id: verifications.id });
  return rows.length;
}
