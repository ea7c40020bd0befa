import type { FastifyInstance } from "fastify";
import { PublicConfigResponse } from "../../../common/api";
import type { AppContext } from "../../context";

export async function configRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const config: PublicConfigResponse = {
    appUrl: ctx.env.appUrl,
    sitesDomain: ctx.env.sitesDomain,
    contactEmail: ctx.env.contactEmail ?? null,
    contactAddress: ctx.env.contactAddress ?? null,
    contactPhone: ctx.env.contactPhone ?? null,
  };
  app.get(
    "/api/config",
    {
      config: {
        doc: {
          summary: "Read the server's public settings",
          description: "Where sites live and how to reach the operator.",
          tags: ["Service"],
          public: true,
          response: { 200: PublicConfigResponse },
        },
      },
    },
    async () => config,
  );
}
