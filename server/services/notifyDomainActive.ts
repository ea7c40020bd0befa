// E-mails a site's owner when a custom domain of the site has become active (DNS verified,
// certificate issued), unless they turned that off in Settings, Notifications. The custom-domains
// job (provisionDomains.ts) calls it once, the first time a domain turns active.
import type { AppContext } from "../context";
import { getSiteNoticeRecipient } from "../db/repositories/profiles";
import { domainActiveMessage } from "../mail/templates";

/** Sends the notice; resolves to whether a message went out. */
export async function notifyDomainActive(
  ctx: Pick<AppContext, "db" | "mailer" | "env">,
  notice: { siteId: string; domain: string },
): Promise<boolean> {
  const recipient = await getSiteNoticeRecipient(ctx.db, notice.siteId);
  if (!recipient || !recipient.notifyDomainActive || recipient.banned) return false;
  await ctx.mailer.send(
    domainActiveMessage(recipient.email, {
      name: recipient.name,
      siteName: recipient.siteName,
      domain: notice.domain,
      link: `${ctx.env.appUrl}/dashboard/sites/${notice.siteId}`,
    }),
  );
  return true;
}
