import type { FastifyInstance } from "fastify";
import { DeploymentListResponse, DeploymentResponse } from "../../../common/sites";
import type { AppContext } from "../../context";
import { listDeploymentsForSite } from "../../db/repositories/deployments";
import { AppError } from "../../errors";
import { deployNow, rollbackDeployment } from "../../services/manageSite";
import { UUID } from "../../services/siteAccess";
import { routeGuards } from "../routeGuards";
import { presentDeployment } from "../sites/present";

type SiteParams = { Params: { siteId: string } };

export async function deploymentRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const guard = routeGuards(ctx);

  app.get<SiteParams>(
    "/api/sites/:siteId/deployments",
    {
      preHandler: guard.ownSite,
      config: {
        token: "read",
        doc: { summary: "List a site's deployments", description: "Newest first.", tags: ["Deployments"], response: { 200: DeploymentListResponse } },
      },
    },
    async (request): Promise<DeploymentListResponse> => {
      const deployments = await listDeploymentsForSite(ctx.db, request.site.id);
      return { deployments: deployments.map((d) => presentDeployment(d, request.site.live_deployment_id)) };
    },
  );

  app.post<SiteParams>(
    "/api/sites/:siteId/deployments",
    {
      preHandler: guard.ownSiteForChange,
      config: {
        token: "deploy",
        doc: {
          summary: "Publish the working tree as a new version",
          description: "The dashboard's Deploy Now: the site's current files become the next version, live at once.",
          tags: ["Deployments"],
          response: { 201: DeploymentResponse },
        },
      },
    },
    async (request, reply) => {
      const deployment = await deployNow(ctx, request.site);
      return reply.status(201).send(presentDeployment(deployment, deployment.id));
    },
  );

  app.post<{ Params: { siteId: string; deploymentId: string } }>(
    "/api/sites/:siteId/deployments/:deploymentId/rollback",
    {
      preHandler: guard.ownSiteForChange,
      config: {
        token: "deploy",
        doc: {
          summary: "Roll back to an earlier version",
          description: "That version is live again, and the working tree is reset to its files.",
          tags: ["Deployments"],
          response: { 200: DeploymentResponse },
          errors: { 404: "No such deployment of this site." },
        },
      },
    },
    async (request): Promise<DeploymentResponse> => {
      if (!UUID.test(request.params.deploymentId)) throw new AppError("deployment_not_found", 404, "Deployment not found");
      const deployment = await rollbackDeployment(ctx, request.user.id, request.site.id, request.params.deploymentId);
      return presentDeployment(deployment, deployment.id);
    },
  );
}
