// Whether the dashboard and the sites share a registrable domain ("site" in the browser's sense:
// example.com for both berth.example.com and abcde.sites.example.com). If they do, any hosted page
// can set a cookie with Domain=example.com that the browser sends to the dashboard: one named like
// the session cookie locks its user out, a flood of them makes the dashboard answer 431, and the
// requests count as same-site. Browsers decide by the Public Suffix List, private section
// included, so this does too (tldts), never by splitting on dots.
//
// Hosts without a registrable domain share nothing: IP addresses (cookies are host-only there),
// and names under a suffix that is not on the list, which browsers treat as a suffix of its own
// (the "*" rule). That is why the default set-up is fine: the dashboard at localhost and sites at
// abcde.localhost, where a site's registrable domain is abcde.localhost itself and a cookie for
// Domain=localhost is refused.
import { getDomain } from "tldts";

const PSL = { allowPrivateDomains: true } as const;

/**
 * The registrable domain the dashboard's host shares with the site hosts
 * (`{label}.{sitesDomain}`), or undefined when it shares none.
 */
export function registrableDomainSharedWithSites(appHost: string, sitesDomain: string): string | undefined {
  const host = appHost.replace(/^\[|\]$/g, "").toLowerCase();
  const dashboard = getDomain(host, PSL);
  if (!dashboard) return undefined;
  // Any label stands for every site: they all sit one label below the sites domain.
  const sample = `x.${sitesDomain}`;
  const sites = getDomain(sample, PSL);
  if (!sites) return undefined;
  if (sites !== sample) return sites === dashboard ? sites : undefined;
  // The sites domain is itself a public suffix (localhost, or one on the list): each site is a
  // registrable domain of its own, {label}.{sitesDomain}. The dashboard shares one only when it
  // sits below a site's host; being that host itself is harmless, since it is then never served
  // as a site.
  return dashboard !== host && dashboard.endsWith(`.${sitesDomain}`) ? dashboard : undefined;
}
