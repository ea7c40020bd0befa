// The bell's feed: list (newest first, a page at a time), the unread count, and marking read.
// Only the owner's notices exist here. A `read` token may list and count them (a script watching
// its deploys); marking read is the person's own state, so it takes a session only.
import type { FastifyInstance } from "fastify";
import {
  MarkAllReadResponse,
  Notification,
  NOTIFICATION_KEEP_DAYS,
  NotificationListQuery,
  NotificationListResponse,
  UnreadCountResponse,
} from "../../../common/notifications";
import type { AppContext } from "../../context";
import { listNotifications, markAllNotificationsRead, markNotificationRead, unreadNotificationCount } from "../../services/notifications/feed";
import type { RouteDoc } from "../openapi/routeDoc";
import { routeGuards } from "../routeGuards";
import { parseQuery } from "../validate";
import { presentNotification } from "./present";

export async function notificationFeedRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const guard = routeGuards(ctx);
  const tags: RouteDoc["tags"] = ["Notifications"];

  app.get(
    "/api/notifications",
    {
      preHandler: guard.signedIn,
      config: {
        token: "read",
        doc: {
          summary: "List your notifications",
          description: `Newest first, a page at a time: pass \`next_cursor\` as \`before\` for the next page. Notices are kept ${NOTIFICATION_KEEP_DAYS} days.`,
          tags,
          query: NotificationListQuery,
          response: { 200: NotificationListResponse },
        },
      },
    },
    async (request): Promise<NotificationListResponse> => {
      const page = await listNotifications(ctx, request.user.id, parseQuery(request, NotificationListQuery));
      return { notifications: page.notifications.map(presentNotification), next_cursor: page.nextCursor, unread_count: page.unreadCount };
    },
  );

  app.get(
    "/api/notifications/unread-count",
    {
      preHandler: guard.signedIn,
      config: { token: "read", doc: { summary: "Count your unread notifications", tags, response: { 200: UnreadCountResponse } } },
    },
    async (request): Promise<UnreadCountResponse> => ({ unread_count: await unreadNotificationCount(ctx, request.user.id) }),
  );

  app.post<{ Params: { notificationId: string } }>(
    "/api/notifications/:notificationId/read",
    {
      preHandler: guard.signedIn,
      config: {
        doc: {
          summary: "Mark a notification read",
          description: "A notice already read keeps the time it was first read.",
          tags,
          response: { 200: Notification },
          errors: { 404: "No such notification of yours." },
        },
      },
    },
    async (request): Promise<Notification> => presentNotification(await markNotificationRead(ctx, request.user.id, request.params.notificationId)),
  );

  app.post(
    "/api/notifications/read-all",
    {
      preHandler: guard.signedIn,
      config: { doc: { summary: "Mark all your notifications read", tags, response: { 200: MarkAllReadResponse } } },
    },
    async (request): Promise<MarkAllReadResponse> => ({ marked: await markAllNotificationsRead(ctx, request.user.id) }),
  );
}
