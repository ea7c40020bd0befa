// A deployment's _redirects and _headers rules, parsed once when it is published
// (services/readSiteConfig.ts) and stored with it, then applied by the edge on each request.
import type { HeaderRule } from "./headers";
import type { RedirectRule } from "./redirects";

export interface SiteConfig {
  redirects: RedirectRule[];
  headers: HeaderRule[];
}

/** The rules of a deployment that has neither file. */
export const EMPTY_CONFIG: SiteConfig = { redirects: [], headers: [] };
