// Rows → the shapes of common/sites.ts.
import type { CheckSummary } from "../../../common/checks";
import type { DeploymentResponse, SiteFileResponse, SiteResponse } from "../../../common/sites";
import type { Deployment } from "../../db/repositories/deployments";
import type { SiteFile } from "../../db/repositories/siteFiles";
import type { Site, SiteSummary } from "../../db/repositories/sites";
import type { SiteUrls } from "../../sites/urls";

export function presentSite(site: SiteSummary, urls: SiteUrls): SiteResponse {
  return {
    id: site.id,
    name: site.name,
    description: site.description,
    status: site.status,
    is_deleted: site.is_deleted,
    deleted_at: site.deleted_at?.toISOString() ?? null,
    subdomain: site.subdomain,
    domain: site.domain,
    created_at: site.created_at.toISOString(),
    url: urls.site(site.subdomain),
    live_deployment_id: site.live_deployment_id,
    live_version: site.live_version,
    file_count: site.file_count,
    size: site.size,
    expires_at: site.expires_at?.toISOString() ?? null,
    publish_at: site.publish_at?.toISOString() ?? null,
    password_protected: site.password_hash !== null,
    visibility: site.visibility,
  };
}

export function presentFile(file: SiteFile, site: Pick<Site, "subdomain">, urls: SiteUrls): SiteFileResponse {
  return {
    id: file.id,
    site_id: file.site_id,
    filename: file.filename,
    file_path: file.file_path,
    file_type: file.is_folder ? null : file.file_type,
    file_size: file.file_size,
    is_folder: file.is_folder,
    parent_folder: file.parent_folder,
    updated_at: file.updated_at.toISOString(),
    url: file.is_folder ? null : urls.file(site.subdomain, file.file_path),
  };
}

/** Every successful publish queues a check, so a version just published is being checked. */
const CHECK_QUEUED: CheckSummary = { status: "pending", problem_count: 0, counts: {} };

/**
 * `check`: the deployment's check summary, null when it has none (published before checks
 * existed); left out, a successful deployment's check is taken to be queued (the list and the
 * check's own event send the real one).
 */
export function presentDeployment(deployment: Deployment, liveDeploymentId: string | null, check?: CheckSummary | null): DeploymentResponse {
  return {
    id: deployment.id,
    site_id: deployment.site_id,
    version: deployment.version,
    status: deployment.status,
    deployment_url: deployment.status === "success" ? deployment.deployment_url : null,
    created_at: deployment.created_at.toISOString(),
    error: deployment.error,
    file_count: deployment.file_count,
    total_size: deployment.total_size,
    note: deployment.note,
    is_live: deployment.id === liveDeploymentId,
    draft: deployment.is_draft,
    check: check !== undefined ? check : deployment.status === "success" ? CHECK_QUEUED : null,
  };
}
