// The signed-in user's account: /api/me (who am I), the profile form, and the Settings page's
// picture, sessions and e-mail preferences (one file each beside this one).
import type { FastifyInstance } from "fastify";
import { MeResponse } from "../../../common/api";
import { ProfileUpdate } from "../../../common/account";
import type { AppContext } from "../../context";
import { updateProfile } from "../../services/updateProfile";
import { routeGuards } from "../routeGuards";
import { parseBody } from "../validate";
import { avatarRoutes } from "./avatar";
import { notificationRoutes } from "./notifications";
import { presentMe } from "./present";
import { sessionRoutes } from "./sessions";

export async function meRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const guard = routeGuards(ctx);

  app.get(
    "/api/me",
    {
      preHandler: guard.signedIn,
      config: {
        doc: {
          summary: "Read who is signed in",
          description: "The user, their profile and their account's plan.",
          tags: ["Account"],
          response: { 200: MeResponse },
        },
      },
    },
    async (request): Promise<MeResponse> => presentMe(ctx, request.user),
  );

  app.patch(
    "/api/me/profile",
    {
      preHandler: guard.signedIn,
      config: { doc: { summary: "Change your profile", tags: ["Account"], body: ProfileUpdate, response: { 200: MeResponse } } },
    },
    async (request): Promise<MeResponse> => {
      const { user } = request;
      const update = parseBody(request, ProfileUpdate);
      await updateProfile(ctx, user.id, update);
      return presentMe(ctx, { ...user, name: update.full_name });
    },
  );

  await avatarRoutes(app, ctx);
  await sessionRoutes(app, ctx);
  await notificationRoutes(app, ctx);
}
