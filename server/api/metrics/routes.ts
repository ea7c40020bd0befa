// GET /metrics on the main port: Prometheus' scrape, for the bearer of BERTH_METRICS_TOKEN only.
// Without the setting the route does not exist, so the path is the 404 of any unknown one.
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../context";
import { bearerMatches, METRICS_PATH, UNAUTHORIZED_HEADERS } from "../../metrics/serve";

export async function metricsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const { token } = ctx.env.metrics;
  const { exposition } = ctx.metrics;
  if (token === undefined || exposition === undefined) return;
  app.get(METRICS_PATH, async (request, reply) => {
    // Not a user's API token: the operator's own secret, so no route guard, and 401 rather than 403.
    if (!bearerMatches(request.headers.authorization, token)) {
      return reply
        .status(401)
        .headers(UNAUTHORIZED_HEADERS)
        .send({ error: { code: "unauthorized", message: "Send the metrics token (BERTH_METRICS_TOKEN) as Authorization: Bearer <token>." } });
    }
    return reply
      .header("cache-control", "no-store")
      .type(exposition.contentType)
      .send(await exposition.text());
  });
}
