// API tokens, managed from a browser session only: a token never creates, lists or revokes tokens,
// so a leaked one cannot make itself permanent.
import type { FastifyInstance } from "fastify";
import { CreateApiTokenRequest, type ApiTokenListResponse, type CreatedApiTokenResponse } from "../../../common/apiTokens";
import type { AppContext } from "../../context";
import { createApiToken, listApiTokens, revokeApiToken } from "../../services/manageApiTokens";
import { routeGuards } from "../routeGuards";
import { parseBody } from "../validate";
import { presentApiToken } from "./present";

export async function apiTokenRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const guard = routeGuards(ctx);

  app.get("/api/tokens", { preHandler: guard.signedIn }, async (request): Promise<ApiTokenListResponse> => {
    const tokens = await listApiTokens(ctx, request.user.id);
    return { tokens: tokens.map(presentApiToken) };
  });

  app.post("/api/tokens", { preHandler: guard.signedIn }, async (request, reply) => {
    const { token, secret } = await createApiToken(ctx, request.user.id, parseBody(CreateApiTokenRequest, request.body));
    const body: CreatedApiTokenResponse = { token: presentApiToken(token), secret };
    return reply.status(201).send(body);
  });

  app.delete<{ Params: { tokenId: string } }>("/api/tokens/:tokenId", { preHandler: guard.signedIn }, async (request, reply) => {
    await revokeApiToken(ctx, request.user.id, request.params.tokenId);
    return reply.status(204).send();
  });
}
