import { and, eq, gt, isNull, lt, lte, or } from "drizzle-orm";
import type { Executor } from "../client";
import { deviceLogins, users } from "../schema";

export type DeviceLogin = typeof deviceLogins.$inferSelect;

/** A new pending request, or undefined when its user code is taken (the caller draws another). */
export async function insertDeviceLogin(
  db: Executor,
  values: { device_code_hash: string; user_code: string; client_name: string | null; expires_at: Date },
): Promise<DeviceLogin | undefined> {
  const [row] = await db.insert(deviceLogins).values(values).onConflictDoNothing({ target: deviceLogins.user_code }).returning();
  return row;
}

/** The request with this user code, whoever it belongs to: the caller decides who may see it. */
export async function getDeviceLoginByUserCode(db: Executor, userCode: string): Promise<DeviceLogin | undefined> {
  const [row] = await db.select().from(deviceLogins).where(eq(deviceLogins.user_code, userCode));
  return row;
}

/** The request whose polling secret hashes to `deviceCodeHash`. */
export async function getDeviceLoginByDeviceCodeHash(db: Executor, deviceCodeHash: string): Promise<DeviceLogin | undefined> {
  const [row] = await db.select().from(deviceLogins).where(eq(deviceLogins.device_code_hash, deviceCodeHash));
  return row;
}

/**
 * Records a poll of the request, unless the last one was after `notAfter`: then nothing changes
 * and undefined comes back (too soon, or no such request). One statement, so two polls sent at
 * once cannot both pass.
 */
export async function recordDeviceLoginPoll(db: Executor, deviceCodeHash: string, at: Date, notAfter: Date): Promise<DeviceLogin | undefined> {
  const [row] = await db
    .update(deviceLogins)
    .set({ last_polled_at: at })
    .where(
      and(eq(deviceLogins.device_code_hash, deviceCodeHash), or(isNull(deviceLogins.last_polled_at), lte(deviceLogins.last_polled_at, notAfter))),
    )
    .returning();
  return row;
}

/** Answers a pending request that has not lapsed, for `userId`; undefined when it was not pending any more. */
export async function answerDeviceLogin(
  db: Executor,
  id: string,
  userId: string,
  status: "approved" | "denied",
  at: Date,
): Promise<DeviceLogin | undefined> {
  const [row] = await db
    .update(deviceLogins)
    .set({ status, user_id: userId, answered_at: at })
    .where(and(eq(deviceLogins.id, id), eq(deviceLogins.status, "pending"), gt(deviceLogins.expires_at, at)))
    .returning();
  return row;
}

/**
 * Marks an approved request's token as handed out, if it was not already and the request has not
 * lapsed: at most one caller ever gets the row back.
 */
export async function claimApprovedDeviceLogin(db: Executor, id: string, at: Date): Promise<DeviceLogin | undefined> {
  const [row] = await db
    .update(deviceLogins)
    .set({ used_at: at })
    .where(and(eq(deviceLogins.id, id), eq(deviceLogins.status, "approved"), isNull(deviceLogins.used_at), gt(deviceLogins.expires_at, at)))
    .returning();
  return row;
}

/** Deletes requests that lapsed before `before`; their codes become free again. */
export async function deleteLapsedDeviceLogins(db: Executor, before: Date): Promise<number> {
  const rows = await db.delete(deviceLogins).where(lt(deviceLogins.expires_at, before)).returning({ id: deviceLogins.id });
  return rows.length;
}

/** The e-mail address of the user who answered a request. */
export async function getAnswererEmail(db: Executor, userId: string): Promise<string | undefined> {
  const [row] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return row?.email;
}
