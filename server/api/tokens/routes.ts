// API tokens, managed from a browser session only: a token never creates, lists or revokes tokens,
// so a leaked one cannot make itself permanent.
import type { FastifyInstance } from "fastify";
import { ApiTokenListResponse, CreateApiTokenRequest, CreatedApiTokenResponse } from "../../../common/apiTokens";
import type { AppContext } from "../../context";
import { createApiToken, listApiTokens, revokeApiToken } from "../../services/manageApiTokens";
import { routeGuards } from "../routeGuards";
import { parseBody } from "../validate";
import { presentApiToken } from "./present";

export async function apiTokenRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const guard = routeGuards(ctx);

  app.get(
    "/api/tokens",
    {
      preHandler: guard.signedIn,
      config: {
        doc: {
          summary: "List your API tokens",
          description: "Newest first; secrets are never shown again.",
          tags: ["API tokens"],
          response: { 200: ApiTokenListResponse },
        },
      },
    },
    async (request): Promise<ApiTokenListResponse> => {
      const tokens = await listApiTokens(ctx, request.user.id);
      return { tokens: tokens.map(presentApiToken) };
    },
  );

  app.post(
    "/api/tokens",
    {
      preHandler: guard.signedIn,
      config: {
        doc: {
          summary: "Create an API token",
          description: "The answer holds the secret, once: the server keeps only its hash.",
          tags: ["API tokens"],
          body: CreateApiTokenRequest,
          response: { 201: CreatedApiTokenResponse },
          errors: { 409: "The account has as many tokens as it may." },
        },
      },
    },
    async (request, reply) => {
      const { token, secret } = await createApiToken(ctx, request.user.id, parseBody(request, CreateApiTokenRequest));
      const body: CreatedApiTokenResponse = { token: presentApiToken(token), secret };
      return reply.status(201).send(body);
    },
  );

  app.delete<{ Params: { tokenId: string } }>(
    "/api/tokens/:tokenId",
    {
      preHandler: guard.signedIn,
      config: {
        doc: {
          summary: "Revoke an API token",
          tags: ["API tokens"],
          response: { 204: { description: "Refused from its next request, on every node." } },
          errors: { 404: "No such token of yours." },
        },
      },
    },
    async (request, reply) => {
      await revokeApiToken(ctx, request.user.id, request.params.tokenId);
      return reply.status(204).send();
    },
  );
}
