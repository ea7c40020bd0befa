import type { FastifyInstance } from "fastify";
import type { DeploymentListResponse } from "../../../common/sites";
import type { AppContext } from "../../context";
import { listDeploymentsForSite } from "../../db/repositories/deployments";
import { AppError } from "../../errors";
import { deployNow, promoteDeployment, rollbackDeployment } from "../../services/manageSite";
import { UUID } from "../../services/siteAccess";
import { routeGuards } from "../routeGuards";
import { presentDeployment } from "../sites/present";

type SiteParams = { Params: { siteId: string } };

export async function deploymentRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const guard = routeGuards(ctx);

  app.get<SiteParams>(
    "/api/sites/:siteId/deployments",
    { preHandler: guard.ownSite, config: { token: "read" } },
    async (request): Promise<DeploymentListResponse> => {
      const deployments = await listDeploymentsForSite(ctx.db, request.site.id);
      return { deployments: deployments.map((d) => presentDeployment(d, request.site.live_deployment_id)) };
    },
  );

  app.post<SiteParams>(
    "/api/sites/:siteId/deployments",
    { preHandler: guard.ownSiteForChange, config: { token: "deploy" } },
    async (request, reply) => {
      const deployment = await deployNow(ctx, request.site);
      return reply.status(201).send(presentDeployment(deployment, deployment.id));
    },
  );

  for (const [action, makeLive] of [
    ["rollback", rollbackDeployment],
    // A draft goes live exactly as a rollback to it would.
    ["promote", promoteDeployment],
  ] as const) {
    app.post<{ Params: { siteId: string; deploymentId: string } }>(
      `/api/sites/:siteId/deployments/:deploymentId/${action}`,
      { preHandler: guard.ownSiteForChange, config: { token: "deploy" } },
      async (request) => {
        if (!UUID.test(request.params.deploymentId)) throw new AppError("deployment_not_found", 404, "Deployment not found");
        const deployment = await makeLive(ctx, request.user.id, request.site.id, request.params.deploymentId);
        return presentDeployment(deployment, deployment.id);
      },
    );
  }
}
