// Where sites are reachable. Sites share the dashboard's scheme and port: with the default
// settings that is http://{subdomain}.localhost:8080/.
import type { Env } from "../env";

export interface SiteUrls {
  site(subdomain: string): string;
  deployment(subdomain: string, version: number): string;
  file(subdomain: string, path: string): string;
  /** The host a subdomain is served at: what a custom domain's CNAME record points to. */
  host(subdomain: string): string;
}

export function createSiteUrls(env: Pick<Env, "appUrl" | "sitesDomain">): SiteUrls {
  const app = new URL(env.appUrl);
  const port = app.port ? `:${app.port}` : "";
  const base = (label: string) => `${app.protocol}//${label}.${env.sitesDomain}${port}/`;
  return {
    site: (subdomain) => base(subdomain),
    deployment: (subdomain, version) => base(`${subdomain}--v${version}`),
    file: (subdomain, path) => base(subdomain) + path.split("/").map(encodeURIComponent).join("/"),
    host: (subdomain) => `${subdomain}.${env.sitesDomain}`,
  };
}
