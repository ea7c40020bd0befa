// A deployment's publish check: its findings, and the two fixes that publish a new version.
import type { FastifyInstance } from "fastify";
import { DeploymentCheckResponse, findingHint, UseIndexRequest } from "../../../common/checks";
import { DeploymentResponse } from "../../../common/sites";
import type { AppContext } from "../../context";
import { getCheckForSite, type DeploymentCheck } from "../../db/repositories/deploymentChecks";
import { AppError } from "../../errors";
import { fixCaseMismatches, useIndexPage } from "../../services/fixDeploymentCheck";
import { UUID } from "../../services/siteAccess";
import { routeGuards } from "../routeGuards";
import { presentDeployment } from "../sites/present";
import { parseBody } from "../validate";

type Params = { Params: { siteId: string; deploymentId: string } };

const notFound = () => new AppError("check_not_found", 404, "This version has no publish check");

function present(check: DeploymentCheck & { version: number }, liveDeploymentId: string | null): DeploymentCheckResponse {
  const noIndex = check.findings.find((f) => f.kind === "no_index");
  return {
    deployment_id: check.deployment_id,
    version: check.version,
    status: check.status,
    problem_count: check.problem_count,
    counts: check.counts,
    findings: check.findings.map((f) => ({ ...f, hint: findingHint(f) })),
    truncated: check.problem_count > check.findings.length,
    files_checked: check.files_checked,
    files_partly_checked: check.files_partly_checked,
    checked_at: check.checked_at?.toISOString() ?? null,
    fixes: {
      case_renames: check.renames.length,
      index_candidates: noIndex?.candidates ?? [],
      applicable: check.status === "done" && check.deployment_id === liveDeploymentId,
    },
  };
}

export async function deploymentCheckRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const guard = routeGuards(ctx);
  const errors = {
    404: "No such deployment of this site, or it has no check (published before checks existed).",
    409: "The check is not done, the version is not the live one, or there is nothing to fix.",
  };

  app.get<Params>(
    "/api/sites/:siteId/deployments/:deploymentId/check",
    {
      preHandler: guard.ownSite,
      config: {
        token: "read",
        doc: {
          summary: "A deployment's publish check",
          description:
            "After every publish the new version's HTML and CSS are checked: references to files it does not have, case mismatches, a missing index.html, links to the author's computer and http:// resources. Each finding names the file and line and says what to do.",
          tags: ["Deployments"],
          response: { 200: DeploymentCheckResponse },
          errors: { 404: errors[404] },
        },
      },
    },
    async (request): Promise<DeploymentCheckResponse> => {
      if (!UUID.test(request.params.deploymentId)) throw notFound();
      const check = await getCheckForSite(ctx.db, request.site.id, request.params.deploymentId);
      if (!check) throw notFound();
      return present(check, request.site.live_deployment_id);
    },
  );

  app.post<Params>(
    "/api/sites/:siteId/deployments/:deploymentId/check/fix-case",
    {
      preHandler: guard.ownSiteForChange,
      config: {
        token: "deploy",
        doc: {
          summary: "Fix case mismatches",
          description:
            "Gives each file the name its references use (a file also referenced under its own name keeps it and gains the other), and publishes the result as a new version. Only for the live version.",
          tags: ["Deployments"],
          response: { 201: DeploymentResponse },
          errors,
        },
      },
    },
    async (request, reply) => {
      if (!UUID.test(request.params.deploymentId)) throw notFound();
      const deployment = await fixCaseMismatches(ctx, request.user.id, request.site.id, request.params.deploymentId);
      return reply.status(201).send(presentDeployment(deployment, deployment.status === "success" ? deployment.id : request.site.live_deployment_id));
    },
  );

  app.post<Params>(
    "/api/sites/:siteId/deployments/:deploymentId/check/use-index",
    {
      preHandler: guard.ownSiteForChange,
      config: {
        token: "deploy",
        doc: {
          summary: "Use a page as the index page",
          description:
            "Copies one of the pages the check offered to index.html (the page keeps its own name too) and publishes the result as a new version. Only for the live version.",
          tags: ["Deployments"],
          body: UseIndexRequest,
          response: { 201: DeploymentResponse },
          errors,
        },
      },
    },
    async (request, reply) => {
      if (!UUID.test(request.params.deploymentId)) throw notFound();
      const { path } = parseBody(request, UseIndexRequest);
      const deployment = await useIndexPage(ctx, request.user.id, request.site.id, request.params.deploymentId, path);
      return reply.status(201).send(presentDeployment(deployment, deployment.status === "success" ? deployment.id : request.site.live_deployment_id));
    },
  );
}
