// berth sites, berth deploys SITE, berth open SITE.
import { spawn } from "node:child_process";
import type { DeploymentListResponse, SiteListResponse } from "../../../common/sites";
import { connect, findSite, settingsOf, type Context } from "../context";
import { formatBytes, table } from "../format";

export async function listSites(ctx: Context, options: { server?: string | undefined; json?: boolean | undefined }): Promise<void> {
  const client = connect(ctx, settingsOf(ctx, { server: options.server }));
  const { sites } = await client.get<SiteListResponse>("/api/sites");
  if (options.json) {
    ctx.stdout.write(JSON.stringify(sites) + "\n");
    return;
  }
  if (sites.length === 0) {
    ctx.reporter.line("No sites yet: berth deploy --create NAME makes one.");
    return;
  }
  const rows = sites.map((s) => [s.subdomain, s.is_deleted ? "deleted" : s.live_version === null ? "-" : `v${s.live_version}`, s.name, s.url]);
  ctx.stdout.write(table([["SITE", "LIVE", "NAME", "URL"], ...rows]) + "\n");
}

export async function listDeploys(
  ctx: Context,
  siteName: string,
  options: { server?: string | undefined; json?: boolean | undefined },
): Promise<void> {
  const client = connect(ctx, settingsOf(ctx, { server: options.server }));
  const site = await findSite(client, siteName);
  const { deployments } = await client.get<DeploymentListResponse>(`/api/sites/${encodeURIComponent(site.id)}/deployments`);
  if (options.json) {
    ctx.stdout.write(JSON.stringify(deployments) + "\n");
    return;
  }
  if (deployments.length === 0) {
    ctx.reporter.line(`${site.subdomain} has no versions yet.`);
    return;
  }
  const rows = deployments.map((d) => [
    `v${d.version}`,
    d.is_live ? "live" : isDraft(d) ? "draft" : d.status === "success" ? "" : d.status,
    d.created_at.slice(0, 16).replace("T", " "),
    `${d.file_count} files, ${formatBytes(d.total_size)}`,
    d.error ?? d.note ?? "",
  ]);
  ctx.stdout.write(table([["VERSION", "STATE", "CREATED (UTC)", "FILES", "NOTE"], ...rows]) + "\n");
}

/** A version published as a draft and never made live; the server marks it once the deploy API lands. */
export function isDraft(deployment: object): boolean {
  return (deployment as { draft?: unknown }).draft === true;
}

export async function openSite(ctx: Context, siteName: string, options: { server?: string | undefined }): Promise<void> {
  const client = connect(ctx, settingsOf(ctx, { server: options.server }));
  const site = await findSite(client, siteName);
  ctx.stdout.write(site.url + "\n");
  openInBrowser(site.url, ctx.env);
}

/** Hands the URL to the desktop's opener; quietly does nothing where there is none (a server, CI). */
export function openInBrowser(url: string, env: NodeJS.ProcessEnv): void {
  if (env.BERTH_NO_BROWSER) return;
  const [command, args] =
    process.platform === "darwin" ? ["open", [url]] : process.platform === "win32" ? ["cmd", ["/c", "start", '""', url]] : ["xdg-open", [url]];
  try {
    const child = spawn(command, args, { stdio: "ignore", detached: true });
    child.on("error", () => undefined);
    child.unref();
  } catch {
    // No opener: the address is printed anyway.
  }
}
