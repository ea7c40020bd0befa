// The profile picture: PUT (multipart, one part named "file"), GET, DELETE /api/me/avatar.
// Served to its owner only, as an image that cannot become a page: its sniffed type, nosniff,
// a CSP that allows nothing, and no embedding from other origins (site hosts included).
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { MeResponse } from "../../../common/api";
import { AVATAR_TYPES } from "../../../common/account";
import type { AppContext } from "../../context";
import { isNotModified } from "../../http/conditional";
import { getAvatar, readAvatarUpload, removeAvatar, saveAvatar } from "../../services/avatars";
import { readUpload } from "../sites/multipart";
import { routeGuards } from "../routeGuards";
import { presentMe } from "./present";

/** Runs after the app-wide security headers, so the picture's stricter ones win. */
async function imageHeaders(_request: FastifyRequest, reply: FastifyReply, payload: unknown) {
  reply.header("content-security-policy", "default-src 'none'");
  reply.header("x-content-type-options", "nosniff");
  reply.header("cross-origin-resource-policy", "same-origin");
  return payload;
}

export async function avatarRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const guard = routeGuards(ctx);

  app.put(
    "/api/me/avatar",
    {
      preHandler: guard.signedIn,
      config: {
        doc: {
          summary: "Upload your profile picture",
          description: `${AVATAR_TYPES.join(", ")}, judged by the first bytes; at most 2 MB.`,
          tags: ["Account"],
          form: { file: "The picture." },
          response: { 200: MeResponse },
          errors: { 400: "Not a PNG, JPEG or WebP image.", 413: "The picture is over 2 MB." },
        },
      },
    },
    async (request): Promise<MeResponse> => {
      const { user } = request;
      await readUpload(request, async (_fields, file) => saveAvatar(ctx, user.id, await readAvatarUpload(file.file)));
      return presentMe(ctx, user);
    },
  );

  app.get(
    "/api/me/avatar",
    {
      preHandler: guard.signedIn,
      onSend: imageHeaders,
      config: {
        doc: {
          summary: "Download your profile picture",
          description: "Served to its owner only. Send If-None-Match with the ETag to get 304 when it has not changed.",
          tags: ["Account"],
          response: {
            200: { description: "The picture, in its own type.", contentType: "image/*" },
            304: { description: "Not modified since the ETag sent." },
          },
          errors: { 404: "You have no picture." },
        },
      },
    },
    async (request, reply) => {
      const avatar = await getAvatar(ctx, request.user.id);
      const etag = `"${avatar.sha256}"`;
      // Private: the URL is the same for everyone, the picture is not. Revalidated every time,
      // which costs a 304, so a removed or replaced picture never lingers.
      reply.header("etag", etag).header("cache-control", "private, no-cache").header("vary", "Cookie");
      if (isNotModified({ ifNoneMatch: request.headers["if-none-match"], ifModifiedSince: undefined }, etag, new Date(0))) {
        return reply.status(304).send();
      }
      reply.type(avatar.type).header("content-length", avatar.size);
      return reply.send(await avatar.open());
    },
  );

  app.delete(
    "/api/me/avatar",
    {
      preHandler: guard.signedIn,
      config: { doc: { summary: "Remove your profile picture", tags: ["Account"], response: { 200: MeResponse } } },
    },
    async (request): Promise<MeResponse> => {
      await removeAvatar(ctx, request.user.id);
      return presentMe(ctx, request.user);
    },
  );
}
