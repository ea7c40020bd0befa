import type { FastifyInstance } from "fastify";
import { PublicConfigResponse } from "../../../common/api";
import type { AppContext } from "../../context";
import { berthVersion } from "../../backup/manifest";

export async function configRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const config: PublicConfigResponse = {
    appUrl: ctx.env.appUrl,
    sitesDomain: ctx.env.sitesDomain,
    contactEmail: ctx.env.contactEmail ?? null,
    contactAddress: ctx.env.contactAddress ?? null,
    contactPhone: ctx.env.contactPhone ?? null,
    version: berthVersion(),
    upgradeUrl: ctx.env.upgradeUrl ?? null,
    plans: ctx.plans,
    backupDaily: ctx.env.backupDaily,
  };
  app.get(
    "/api/config",
    {
      config: {
        doc: {
          summary: "Read the server's public settings",
          description:
            "Where sites live, how to reach the operator, where to upgrade, the plans the server offers with their limits and features, whether it backs up daily, and the version of Berth.",
          tags: ["Service"],
          public: true,
          response: { 200: PublicConfigResponse },
        },
      },
    },
    async () => config,
  );
}
