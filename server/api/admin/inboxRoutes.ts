// The admin page's inbox (contact and support messages) and the requests for a higher plan. Admins only:
// everyone else gets the 404 of an unknown route (the admin guard).
import type { FastifyInstance } from "fastify";
import {
  AdminMessage,
  AdminMessageReply,
  AdminMessagesQuery,
  AdminMessagesResponse,
  AdminMessageUpdate,
  AdminUpgradeAnswer,
  AdminUpgradeRequestsQuery,
  AdminUpgradeRequestsResponse,
  UpgradeRequest,
} from "../../../common/support";
import type { AppContext } from "../../context";
import { listMessages, replyToMessage, setMessageHandled } from "../../services/admin/inbox";
import { answerUpgradeRequest, listUpgradeRequests } from "../../services/upgrades/answerUpgradeRequest";
import { routeGuards } from "../routeGuards";
import { parseBody, parseQuery } from "../validate";

type MessageParams = { Params: { messageId: string } };
type RequestParams = { Params: { requestId: string } };

export async function adminInboxRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const guard = routeGuards(ctx);

  app.get(
    "/api/admin/messages",
    {
      preHandler: guard.admin,
      config: {
        doc: {
          summary: "List contact and support messages",
          tags: ["Admin"],
          query: AdminMessagesQuery,
          response: { 200: AdminMessagesResponse },
        },
      },
    },
    async (request): Promise<AdminMessagesResponse> => listMessages(ctx, parseQuery(request, AdminMessagesQuery)),
  );

  app.patch<MessageParams>(
    "/api/admin/messages/:messageId",
    {
      preHandler: guard.admin,
      config: { doc: { summary: "Mark a message handled or not", tags: ["Admin"], body: AdminMessageUpdate, response: { 200: AdminMessage } } },
    },
    async (request): Promise<AdminMessage> =>
      setMessageHandled(ctx, request.user.id, request.params.messageId, parseBody(request, AdminMessageUpdate).handled),
  );

  app.post<MessageParams>(
    "/api/admin/messages/:messageId/reply",
    {
      preHandler: guard.admin,
      config: {
        doc: {
          summary: "Answer a message by e-mail",
          description:
            "Mails the text (text/plain) to the address the message gave, records it on the message and marks it handled. One reply per message; when the mail cannot be sent (502), nothing is recorded.",
          tags: ["Admin"],
          body: AdminMessageReply,
          response: { 200: AdminMessage },
          errors: { 409: "The message has a reply already." },
        },
      },
    },
    async (request): Promise<AdminMessage> => replyToMessage(ctx, request.user, request.params.messageId, parseBody(request, AdminMessageReply)),
  );

  app.get(
    "/api/admin/upgrade-requests",
    {
      preHandler: guard.admin,
      config: {
        doc: {
          summary: "List pending requests for a higher plan",
          tags: ["Admin"],
          query: AdminUpgradeRequestsQuery,
          response: { 200: AdminUpgradeRequestsResponse },
        },
      },
    },
    async (request): Promise<AdminUpgradeRequestsResponse> => listUpgradeRequests(ctx, parseQuery(request, AdminUpgradeRequestsQuery)),
  );

  app.post<RequestParams>(
    "/api/admin/upgrade-requests/:requestId/answer",
    {
      preHandler: guard.admin,
      config: {
        doc: {
          summary: "Approve or decline a request for a higher plan",
          description:
            "Approving sets the user's plan to the plan asked for (while it is above theirs), as setting it on the user does. The user is notified either way.",
          tags: ["Admin"],
          body: AdminUpgradeAnswer,
          response: { 200: UpgradeRequest },
          errors: { 409: "The request was answered already." },
        },
      },
    },
    async (request): Promise<UpgradeRequest> =>
      answerUpgradeRequest(ctx, request.user.id, request.params.requestId, parseBody(request, AdminUpgradeAnswer)),
  );
}
