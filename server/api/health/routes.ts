import type { FastifyInstance } from "fastify";
import { sql } from "drizzle-orm";
import { HealthResponse } from "../../../common/api";
import type { AppContext } from "../../context";

export async function healthRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // The server listens only after migrations have run, so a reachable database means ready.
  app.get(
    "/api/health",
    {
      config: {
        doc: {
          summary: "Check that the server is ready",
          description:
            "For load balancers and monitors: the server is up, its migrations have run and its database answers. From SIGTERM on it answers 503 draining, while requests in flight finish.",
          tags: ["Service"],
          public: true,
          response: {
            200: HealthResponse,
            503: { description: "The server is shutting down (draining) or its database does not answer.", schema: HealthResponse },
          },
        },
      },
    },
    async (_request, reply) => {
      // A balancer stops sending new requests here while those in flight finish.
      if (ctx.lifecycle.draining) return reply.status(503).send({ status: "draining" } satisfies HealthResponse);
      try {
        await ctx.db.execute(sql`select 1`);
        return { status: "ok" } satisfies HealthResponse;
      } catch (error) {
        ctx.log.error({ err: error }, "health check: database unreachable");
        return reply.status(503).send({ status: "unavailable" } satisfies HealthResponse);
      }
    },
  );
}
