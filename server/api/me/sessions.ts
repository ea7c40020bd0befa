// Active sessions: GET /api/me/sessions, DELETE /api/me/sessions/:id, and
// POST /api/me/sessions/revoke-others. Each answers the list as it is afterwards.
import type { FastifyInstance } from "fastify";
import type { SessionsResponse } from "../../../common/account";
import type { AppContext } from "../../context";
import { listAccountSessions, revokeAccountSession, revokeOtherAccountSessions } from "../../services/accountSessions";
import { routeGuards } from "../routeGuards";

export async function sessionRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const guard = routeGuards(ctx);

  app.get("/api/me/sessions", { preHandler: guard.signedIn }, async (request): Promise<SessionsResponse> => {
    const { user, session } = request;
    return { sessions: await listAccountSessions(ctx, user.id, session.id) };
  });

  app.delete<{ Params: { sessionId: string } }>(
    "/api/me/sessions/:sessionId",
    { preHandler: guard.signedIn },
    async (request): Promise<SessionsResponse> => {
      const { user, session } = request;
      await revokeAccountSession(ctx, user.id, request.params.sessionId);
      return { sessions: await listAccountSessions(ctx, user.id, session.id) };
    },
  );

  app.post("/api/me/sessions/revoke-others", { preHandler: guard.signedIn }, async (request): Promise<SessionsResponse> => {
    const { user, session } = request;
    await revokeOtherAccountSessions(ctx, user.id, session.id);
    return { sessions: await listAccountSessions(ctx, user.id, session.id) };
  });
}
