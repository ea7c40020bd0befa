// The notices about a site's deployments, custom domains, share links and expiry. Each is called
// once, on the node where the change happened, after it committed (watchNotices.ts, the domains
// job, the edge's share links, the worker).
import { oneLineName } from "../../../common/names";
import type { AppContext } from "../../context";
import type { Deployment } from "../../db/repositories/deployments";
import { getShareLinkOfSite } from "../../db/repositories/shareLinks";
import { getSiteOwnerAndName } from "../../db/repositories/sites";
import { notify } from "./notify";

type NoticeContext = Pick<AppContext, "db" | "events">;

const sitePage = (siteId: string, tab?: "deployments" | "sharing" | "settings") => `/dashboard/sites/${siteId}${tab ? `?tab=${tab}` : ""}`;

/** A publish, a promotion or a rollback that went live (or a draft that is ready), or a deployment that failed. */
export async function noticeDeployment(ctx: NoticeContext, siteId: string, deployment: Deployment): Promise<void> {
  if (deployment.status !== "success" && deployment.status !== "failed") return;
  const site = await getSiteOwnerAndName(ctx.db, siteId);
  if (!site) return;
  const name = oneLineName(site.name);
  const link = sitePage(siteId, "deployments");
  if (deployment.status === "failed") {
    await notify(ctx, {
      userId: site.user_id,
      kind: "deploy_failed",
      title: `Deployment of ${name} failed`,
      body: `Version ${deployment.version} could not be published: ${deployment.error ?? "Deployment failed to complete successfully"}. The previous version is still live.`,
      link,
      siteId,
    });
    return;
  }
  await notify(ctx, {
    userId: site.user_id,
    kind: "deploy_succeeded",
    title: deployment.is_draft ? `Draft version ${deployment.version} of ${name} is ready` : `Version ${deployment.version} of ${name} is live`,
    body: deployment.is_draft ? "It is served on its own version address until you promote it." : deployment.note,
    link,
    siteId,
  });
}

export async function noticeDomainActive(ctx: NoticeContext, domain: { siteId: string; hostname: string }): Promise<void> {
  const site = await getSiteOwnerAndName(ctx.db, domain.siteId);
  if (!site) return;
  await notify(ctx, {
    userId: site.user_id,
    kind: "domain_active",
    title: `${domain.hostname} is now active`,
    body: `Its DNS points to Berth and its certificate is ready: ${oneLineName(site.name)} is served at https://${domain.hostname}/`,
    link: sitePage(domain.siteId, "settings"),
    siteId: domain.siteId,
  });
}

export async function noticeDomainFailed(ctx: NoticeContext, domain: { siteId: string; hostname: string; error: string | null }): Promise<void> {
  const site = await getSiteOwnerAndName(ctx.db, domain.siteId);
  if (!site) return;
  await notify(ctx, {
    userId: site.user_id,
    kind: "domain_failed",
    title: `${domain.hostname} could not be set up`,
    body: `${sentence(domain.error ?? "The custom domain could not be verified")} Check its DNS records, then choose Check again.`,
    link: sitePage(domain.siteId, "settings"),
    siteId: domain.siteId,
  });
}

/** "Domain validation timed out" → "Domain validation timed out." */
const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

/** Called by the open that spent a share link's last view. */
export async function noticeShareLinkUsedUp(ctx: NoticeContext, used: { siteId: string; linkId: string }): Promise<void> {
  const link = await getShareLinkOfSite(ctx.db, used.siteId, used.linkId);
  const site = await getSiteOwnerAndName(ctx.db, used.siteId);
  if (!link || !site) return;
  const views = link.max_views === 1 ? "1 view" : `${link.max_views ?? link.views} views`;
  await notify(ctx, {
    userId: site.user_id,
    kind: "share_link_used_up",
    title: `Share link "${oneLineName(link.name)}" of ${oneLineName(site.name)} is used up`,
    body: `It was opened ${views}, its limit, so it opens nothing more. Browsers that opened it keep their access until it expires. Raise its limit or make a new link to share the site again.`,
    link: sitePage(used.siteId, "sharing"),
    siteId: used.siteId,
  });
}

/** Told less than a day before: "27 Nov 2026, 21:00 UTC", since the server knows no one's time zone. */
export function formatUtc(date: Date): string {
  const day = date.toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
  const time = date.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit", hour12: false, timeZone: "UTC" });
  return `${day}, ${time} UTC`;
}

export async function noticeSiteExpiring(ctx: NoticeContext, site: { id: string; user_id: string; name: string; expires_at: Date }): Promise<void> {
  await notify(ctx, {
    userId: site.user_id,
    kind: "site_expiring",
    title: `${oneLineName(site.name)} expires in less than a day`,
    body: `From ${formatUtc(site.expires_at)} every address of the site answers "This site has expired". To keep it online, change or clear its expiry in the site's settings.`,
    link: sitePage(site.id, "settings"),
    siteId: site.id,
  });
}
