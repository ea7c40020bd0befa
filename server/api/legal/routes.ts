import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";

export async function legalRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get("/api/legal/terms", async () => ctx.legal.terms);
  app.get("/api/legal/privacy", async () => ctx.legal.privacy);
}
