import type { FastifyInstance } from "fastify";
import type { PublicConfigResponse } from "../../../common/api";
import type { AppContext } from "../../context";

export async function configRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const config: PublicConfigResponse = {
    appUrl: ctx.env.appUrl,
    sitesDomain: ctx.env.sitesDomain,
    contactEmail: ctx.env.contactEmail ?? null,
    contactAddress: ctx.env.contactAddress ?? null,
    contactPhone: ctx.env.contactPhone ?? null,
  };
  app.get("/api/config", async () => config);
}
