import type { FastifyInstance } from "fastify";
import type { DeploymentListResponse } from "../../../common/sites";
import type { AppContext } from "../../context";
import { listDeploymentsForSite } from "../../db/repositories/deployments";
import { AppError } from "../../errors";
import { deployNow, rollbackDeployment } from "../../services/manageSite";
import { requireSite, requireSiteForChange, UUID } from "../../services/siteAccess";
import { presentDeployment } from "../sites/present";
import { requireUser } from "../session";

export async function deploymentRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get<{ Params: { siteId: string } }>("/api/sites/:siteId/deployments", async (request): Promise<DeploymentListResponse> => {
    const user = await requireUser(ctx, request);
    const site = await requireSite(ctx.db, user.id, request.params.siteId);
    const deployments = await listDeploymentsForSite(ctx.db, site.id);
    return { deployments: deployments.map((d) => presentDeployment(d, site.live_deployment_id)) };
  });

  app.post<{ Params: { siteId: string } }>("/api/sites/:siteId/deployments", async (request, reply) => {
    const user = await requireUser(ctx, request);
    const deployment = await deployNow(ctx, user.id, request.params.siteId);
    return reply.status(201).send(presentDeployment(deployment, deployment.id));
  });

  app.post<{ Params: { siteId: string; deploymentId: string } }>("/api/sites/:siteId/deployments/:deploymentId/rollback", async (request) => {
    const user = await requireUser(ctx, request);
    const site = await requireSiteForChange(ctx.db, user.id, request.params.siteId);
    if (!UUID.test(request.params.deploymentId)) throw new AppError("deployment_not_found", 404, "Deployment not found");
    const deployment = await rollbackDeployment(ctx, user.id, site.id, request.params.deploymentId);
    return presentDeployment(deployment, deployment.id);
  });
}
