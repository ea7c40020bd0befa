import type { FastifyInstance } from "fastify";
import type { MeResponse } from "../../../common/api";
import type { AppContext } from "../../context";
import { getProfileForUser } from "../../db/repositories/profiles";
import { requireUser } from "../session";

export async function meRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get("/api/me", async (request): Promise<MeResponse> => {
    const user = await requireUser(ctx, request);
    const profile = await getProfileForUser(ctx.db, user.id);
    return {
      user: { id: user.id, email: user.email, name: user.name, createdAt: user.createdAt.toISOString() },
      profile: {
        id: user.id,
        full_name: profile?.full_name ?? user.name,
        company: profile?.company ?? null,
        website: profile?.website ?? null,
        avatar_url: profile?.avatar_url ?? null,
        updated_at: (profile?.updated_at ?? user.updatedAt).toISOString(),
      },
    };
  });
}
