import type { FastifyInstance } from "fastify";
import { sql } from "drizzle-orm";
import type { AppContext } from "../../context";

export async function healthRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // The server listens only after migrations have run, so a reachable database means ready.
  app.get("/api/health", async (_request, reply) => {
    try {
      await ctx.db.execute(sql`select 1`);
      return { status: "ok" };
    } catch (error) {
      ctx.log.error({ err: error }, "health check: database unreachable");
      return reply.status(503).send({ status: "unavailable" });
    }
  });
}
