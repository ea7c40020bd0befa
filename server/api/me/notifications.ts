// E-mail preferences: GET and PUT /api/me/notifications (all three at once).
import type { FastifyInstance } from "fastify";
import { NotificationPreferences } from "../../../common/account";
import type { AppContext } from "../../context";
import { readNotificationPreferences, saveNotificationPreferences } from "../../services/notificationPreferences";
import { routeGuards } from "../routeGuards";
import { parseBody } from "../validate";

export async function notificationRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const guard = routeGuards(ctx);

  app.get(
    "/api/me/notifications",
    {
      preHandler: guard.signedIn,
      config: { doc: { summary: "Read your e-mail preferences", tags: ["Account"], response: { 200: NotificationPreferences } } },
    },
    async (request): Promise<NotificationPreferences> => {
      return readNotificationPreferences(ctx, request.user.id);
    },
  );

  app.put(
    "/api/me/notifications",
    {
      preHandler: guard.signedIn,
      config: {
        doc: {
          summary: "Save your e-mail preferences",
          description: "All three at once.",
          tags: ["Account"],
          body: NotificationPreferences,
          response: { 200: NotificationPreferences },
        },
      },
    },
    async (request): Promise<NotificationPreferences> => {
      return saveNotificationPreferences(ctx, request.user.id, parseBody(request, NotificationPreferences));
    },
  );
}
