// A notice for every admin (BERTH_ADMIN_EMAILS and promoted users), as the admin guard counts them.
import type { AppContext } from "../../context";
import { listAdminUserIds } from "../../db/repositories/adminUsers";
import { notify, type Notice } from "../notifications/notify";

export async function notifyAdmins(ctx: Pick<AppContext, "db" | "events" | "env">, notice: Omit<Notice, "userId">): Promise<void> {
  for (const userId of await listAdminUserIds(ctx.db, [...ctx.env.adminEmails])) {
    await notify(ctx, { ...notice, userId });
  }
}
