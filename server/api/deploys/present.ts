// Deploy rows → DeployResponse (common/deploys.ts).
import type { DeployResponse } from "../../../common/deploys";
import type { Deploy } from "../../db/repositories/deploys";
import type { Deployment } from "../../db/repositories/deployments";
import type { SiteUrls } from "../../sites/urls";

export function presentDeploy(
  deploy: Deploy,
  deployment: Deployment | undefined,
  missing: string[],
  site: { subdomain: string },
  urls: SiteUrls,
): DeployResponse {
  return {
    id: deploy.id,
    site_id: deploy.site_id,
    status: deploy.status,
    draft: deploy.draft,
    message: deploy.message,
    file_count: deploy.file_count,
    total_size: deploy.total_size,
    missing: deploy.status === "uploading" ? missing : [],
    deployment: deployment
      ? {
          id: deployment.id,
          version: deployment.version,
          status: deployment.status,
          deployment_url: deployment.status === "success" ? deployment.deployment_url : null,
          error: deployment.error,
        }
      : null,
    site_url: urls.site(site.subdomain),
    error: deploy.error,
    created_at: deploy.created_at.toISOString(),
    expires_at: deploy.expires_at.toISOString(),
  };
}
