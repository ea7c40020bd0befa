// Active sessions: GET /api/me/sessions, DELETE /api/me/sessions/:id, and
// POST /api/me/sessions/revoke-others. Each answers the list as it is afterwards.
import type { FastifyInstance } from "fastify";
import type { SessionsResponse } from "../../../common/account";
import type { AppContext } from "../../context";
import { listAccountSessions, revokeAccountSession, revokeOtherAccountSessions } from "../../services/accountSessions";
import { requireSession } from "../session";

export async function sessionRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get("/api/me/sessions", async (request): Promise<SessionsResponse> => {
    const { user, session } = await requireSession(ctx, request);
    return { sessions: await listAccountSessions(ctx, user.id, session.id) };
  });

  app.delete<{ Params: { sessionId: string } }>("/api/me/sessions/:sessionId", async (request): Promise<SessionsResponse> => {
    const { user, session } = await requireSession(ctx, request);
    await revokeAccountSession(ctx, user.id, request.params.sessionId);
    return { sessions: await listAccountSessions(ctx, user.id, session.id) };
  });

  app.post("/api/me/sessions/revoke-others", async (request): Promise<SessionsResponse> => {
    const { user, session } = await requireSession(ctx, request);
    await revokeOtherAccountSessions(ctx, user.id, session.id);
    return { sessions: await listAccountSessions(ctx, user.id, session.id) };
  });
}
