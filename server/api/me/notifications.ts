// E-mail preferences: GET and PUT /api/me/notifications (all three at once).
import type { FastifyInstance } from "fastify";
import { NotificationPreferences } from "../../../common/account";
import type { AppContext } from "../../context";
import { getNotificationPreferences, setNotificationPreferences } from "../../db/repositories/profiles";
import { requireUser } from "../session";
import { parseBody } from "../validate";

const DEFAULTS: NotificationPreferences = { deployFailed: true, domainActive: true, weeklySummary: false };

export async function notificationRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get("/api/me/notifications", async (request): Promise<NotificationPreferences> => {
    const user = await requireUser(ctx, request);
    return (await getNotificationPreferences(ctx.db, user.id)) ?? DEFAULTS;
  });

  app.put("/api/me/notifications", async (request): Promise<NotificationPreferences> => {
    const user = await requireUser(ctx, request);
    const preferences = parseBody(NotificationPreferences, request.body);
    await setNotificationPreferences(ctx.db, user.id, preferences);
    return (await getNotificationPreferences(ctx.db, user.id)) ?? DEFAULTS;
  });
}
