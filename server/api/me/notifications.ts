// E-mail preferences: GET and PUT /api/me/notifications (all three at once).
import type { FastifyInstance } from "fastify";
import { NotificationPreferences } from "../../../common/account";
import type { AppContext } from "../../context";
import { getNotificationPreferences, setNotificationPreferences } from "../../db/repositories/profiles";
import { routeGuards } from "../routeGuards";
import { parseBody } from "../validate";

const DEFAULTS: NotificationPreferences = { deployFailed: true, domainActive: true, weeklySummary: false };

export async function notificationRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const guard = routeGuards(ctx);

  app.get("/api/me/notifications", { preHandler: guard.signedIn }, async (request): Promise<NotificationPreferences> => {
    return (await getNotificationPreferences(ctx.db, request.user.id)) ?? DEFAULTS;
  });

  app.put("/api/me/notifications", { preHandler: guard.signedIn }, async (request): Promise<NotificationPreferences> => {
    const preferences = parseBody(NotificationPreferences, request.body);
    await setNotificationPreferences(ctx.db, request.user.id, preferences);
    return (await getNotificationPreferences(ctx.db, request.user.id)) ?? DEFAULTS;
  });
}
