import type { FastifyInstance } from "fastify";
import { DeploymentListResponse, DeploymentResponse } from "../../../common/sites";
import type { AppContext } from "../../context";
import { checkSummaries } from "../../db/repositories/deploymentChecks";
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
    {
      preHandler: guard.ownSite,
      config: {
        token: "read",
        doc: { summary: "List a site's deployments", description: "Newest first.", tags: ["Deployments"], response: { 200: DeploymentListResponse } },
      },
    },
    async (request): Promise<DeploymentListResponse> => {
      const deployments = await listDeploymentsForSite(ctx.db, request.site.id);
      const checks = await checkSummaries(
        ctx.db,
        deployments.map((d) => d.id),
      );
      return { deployments: deployments.map((d) => presentDeployment(d, request.site.live_deployment_id, checks.get(d.id) ?? null)) };
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

  const goLive = [
    {
      action: "rollback",
      makeLive: rollbackDeployment,
      summary: "Roll back to an earlier version",
      description: "That version is live again, and the working tree is reset to its files.",
    },
    {
      // A draft goes live exactly as a rollback to it would.
      action: "promote",
      makeLive: promoteDeployment,
      summary: "Promote a draft",
      description: "The draft goes live, and the working tree is reset to its files. Promoting the live version again answers it as it is.",
    },
  ] as const;
  for (const { action, makeLive, summary, description } of goLive) {
    app.post<{ Params: { siteId: string; deploymentId: string } }>(
      `/api/sites/:siteId/deployments/:deploymentId/${action}`,
      {
        preHandler: guard.ownSiteForChange,
        config: {
          token: "deploy",
          doc: {
            summary,
            description,
            tags: ["Deployments"],
            response: { 200: DeploymentResponse },
            errors: { 404: "No such deployment of this site.", 409: "The deployment cannot go live this way." },
          },
        },
      },
      async (request): Promise<DeploymentResponse> => {
        if (!UUID.test(request.params.deploymentId)) throw new AppError("deployment_not_found", 404, "Deployment not found");
        const deployment = await makeLive(ctx, request.user.id, request.site.id, request.params.deploymentId);
        return presentDeployment(deployment, deployment.id);
      },
    );
  }
}
