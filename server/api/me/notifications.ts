// E-mail preferences: GET and PUT /api/me/notifications (all three at once), and where each kind
// of notice goes, the feed or e-mail: GET and PUT /api/me/notifications/channels. The e-mail of a
// failed deployment and of an active domain is the same setting in both.
import type { FastifyInstance } from "fastify";
import { NotificationPreferences } from "../../../common/account";
import type { AppContext } from "../../context";
import { readNotificationPreferences, saveNotificationPreferences } from "../../services/notificationPreferences";
import { routeGuards } from "../routeGuards";
import { parseBody } from "../validate";
import { NotificationChannels, UpdateNotificationChannelsRequest } from "../../../common/notifications";
import { readNotificationChannels, saveNotificationChannels } from "../../services/notifications/channels";

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

  app.get(
    "/api/me/notifications/channels",
    {
      preHandler: guard.signedIn,
      config: {
        doc: {
          summary: "Read where each kind of notification goes",
          description: "Per kind: the dashboard's feed, e-mail, both or neither.",
          tags: ["Account"],
          response: { 200: NotificationChannels },
        },
      },
    },
    async (request): Promise<NotificationChannels> => readNotificationChannels(ctx, request.user.id),
  );

  app.put(
    "/api/me/notifications/channels",
    {
      preHandler: guard.signedIn,
      config: {
        doc: {
          summary: "Choose where kinds of notification go",
          description:
            "The kinds named change; the others stay. The e-mail of `deploy_failed` and `domain_active` is the `deployFailed` and `domainActive` e-mail preference.",
          tags: ["Account"],
          body: UpdateNotificationChannelsRequest,
          response: { 200: NotificationChannels },
        },
      },
    },
    async (request): Promise<NotificationChannels> =>
      saveNotificationChannels(ctx, request.user.id, parseBody(request, UpdateNotificationChannelsRequest)),
  );
}
