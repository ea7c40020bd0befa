// The account's e-mail preferences (Settings). A user without a profile row gets the defaults
// the profiles table gives a new row: failure and domain mails on, the weekly summary off.
import type { NotificationPreferences } from "../../common/account";
import type { AppContext } from "../context";
import { getNotificationPreferences, setNotificationPreferences } from "../db/repositories/profiles";

const DEFAULTS: NotificationPreferences = { deployFailed: true, domainActive: true, weeklySummary: false };

export async function readNotificationPreferences(ctx: Pick<AppContext, "db">, userId: string): Promise<NotificationPreferences> {
  return (await getNotificationPreferences(ctx.db, userId)) ?? DEFAULTS;
}

/** Saves all three at once and answers them as stored. */
export async function saveNotificationPreferences(
  ctx: Pick<AppContext, "db">,
  userId: string,
  preferences: NotificationPreferences,
): Promise<NotificationPreferences> {
  await setNotificationPreferences(ctx.db, userId, preferences);
  return readNotificationPreferences(ctx, userId);
}
