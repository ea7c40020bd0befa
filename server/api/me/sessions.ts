// Active sessions: GET /api/me/sessions, DELETE /api/me/sessions/:id, and
// POST /api/me/sessions/revoke-others. Each answers the list as it is afterwards.
import type { FastifyInstance } from "fastify";
import { SessionsResponse } from "../../../common/account";
import type { AppContext } from "../../context";
import { listAccountSessions, revokeAccountSession, revokeOtherAccountSessions } from "../../services/accountSessions";
import { routeGuards } from "../routeGuards";

export async function sessionRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const guard = routeGuards(ctx);

  app.get(
    "/api/me/sessions",
    {
      preHandler: guard.signedIn,
      config: {
        doc: {
          summary: "List your signed-in browsers",
          description: "The current session first.",
          tags: ["Account"],
          response: { 200: SessionsResponse },
        },
      },
    },
    async (request): Promise<SessionsResponse> => {
      const { user, session } = request;
      return { sessions: await listAccountSessions(ctx, user.id, session.id) };
    },
  );

  app.delete<{ Params: { sessionId: string } }>(
    "/api/me/sessions/:sessionId",
    {
      preHandler: guard.signedIn,
      config: {
        doc: {
          summary: "Sign out one browser",
          description: "Answers the sessions that remain.",
          tags: ["Account"],
          response: { 200: SessionsResponse },
          errors: { 404: "No such session of yours." },
        },
      },
    },
    async (request): Promise<SessionsResponse> => {
      const { user, session } = request;
      await revokeAccountSession(ctx, user.id, request.params.sessionId);
      return { sessions: await listAccountSessions(ctx, user.id, session.id) };
    },
  );

  app.post(
    "/api/me/sessions/revoke-others",
    {
      preHandler: guard.signedIn,
      config: { doc: { summary: "Sign out every other browser", tags: ["Account"], response: { 200: SessionsResponse } } },
    },
    async (request): Promise<SessionsResponse> => {
      const { user, session } = request;
      await revokeOtherAccountSessions(ctx, user.id, session.id);
      return { sessions: await listAccountSessions(ctx, user.id, session.id) };
    },
  );
}
