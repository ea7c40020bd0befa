// berth rollback SITE [VERSION] and berth promote SITE VERSION: moving which version is live.
import type { DeploymentListResponse, DeploymentResponse } from "../../../common/sites";
import { connect, findSite, settingsOf, type Context } from "../context";
import { CliError } from "../errors";
import { isDraft } from "./sites";

/** Without a version: the newest successful version older than the live one, drafts left out (they were never live). */
export function previousVersion(deployments: DeploymentResponse[]): DeploymentResponse | undefined {
  const live = deployments.find((d) => d.is_live);
  if (!live) return undefined;
  return deployments.filter((d) => d.version < live.version && d.status === "success" && !isDraft(d)).sort((a, b) => b.version - a.version)[0];
}

async function siteAndVersions(ctx: Context, siteName: string, server: string | undefined) {
  const client = connect(ctx, settingsOf(ctx, { server }));
  const site = await findSite(client, siteName);
  const { deployments } = await client.get<DeploymentListResponse>(`/api/sites/${encodeURIComponent(site.id)}/deployments`);
  return { client, site, deployments };
}

function versionOf(deployments: DeploymentResponse[], version: number, site: string): DeploymentResponse {
  const found = deployments.find((d) => d.version === version);
  if (!found) throw new CliError(`${site} has no version ${version} (berth deploys ${site} lists them)`);
  return found;
}

export async function rollback(ctx: Context, siteName: string, version: number | undefined, options: { server?: string | undefined }): Promise<void> {
  const { client, site, deployments } = await siteAndVersions(ctx, siteName, options.server);
  const target = version === undefined ? previousVersion(deployments) : versionOf(deployments, version, site.subdomain);
  if (!target) throw new CliError(`${site.subdomain} has no earlier successful version to roll back to`);
  if (target.is_live) {
    ctx.reporter.line(`Version ${target.version} of ${site.subdomain} is already live.`);
  } else {
    await client.post<DeploymentResponse>(`/api/sites/${encodeURIComponent(site.id)}/deployments/${encodeURIComponent(target.id)}/rollback`, {});
    ctx.reporter.line(`Rolled ${site.subdomain} back to version ${target.version}.`);
  }
  ctx.stdout.write(site.url + "\n");
}

export async function promote(ctx: Context, siteName: string, version: number, options: { server?: string | undefined }): Promise<void> {
  const { client, site, deployments } = await siteAndVersions(ctx, siteName, options.server);
  const target = versionOf(deployments, version, site.subdomain);
  if (target.is_live) {
    ctx.reporter.line(`Version ${target.version} of ${site.subdomain} is already live.`);
  } else {
    await client.post<DeploymentResponse>(`/api/sites/${encodeURIComponent(site.id)}/deployments/${encodeURIComponent(target.id)}/promote`, {});
    ctx.reporter.line(`Version ${target.version} of ${site.subdomain} is live.`);
  }
  ctx.stdout.write(site.url + "\n");
}
