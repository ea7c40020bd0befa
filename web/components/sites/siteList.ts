// Pure rules of the site list: which status a site shows, how search and the Filter menu narrow
// the list, and how a site's address is displayed. Kept free of React so they are unit-tested.
import { SITE_TEXT, type SiteResponse } from "../../../common/sites";

export const LIST_STATUSES = ["active", "not_deployed", "marked_for_deletion"] as const;
export type ListStatus = (typeof LIST_STATUSES)[number];

export const LIST_STATUS_LABEL: Record<ListStatus, string> = {
  active: SITE_TEXT.listActive,
  not_deployed: SITE_TEXT.listNotDeployed,
  marked_for_deletion: SITE_TEXT.listMarkedForDeletion,
};

type StatusFields = Pick<SiteResponse, "status" | "is_deleted">;

/** 'Active' when status is 'active', otherwise 'Not Deployed' (nothing is live yet); a site marked for deletion says so first. */
export function listStatusOf(site: StatusFields): ListStatus {
  if (site.is_deleted || site.status === "deleted") return "marked_for_deletion";
  return site.status === "active" ? "active" : "not_deployed";
}

/** "http://abcde.localhost:8080/" → "localhost:8080": the host part shown after the subdomain. */
export function hostOf(url: string, subdomain: string): string {
  const bare = url.replace(/^[a-z][a-z0-9+.-]*:\/\//i, "").replace(/\/.*$/, "");
  const prefix = `${subdomain}.`;
  return bare.toLowerCase().startsWith(prefix.toLowerCase()) ? bare.slice(prefix.length) : bare;
}

/** {subdomain}.{host}, without scheme or path: how lists and the site page show a site's address. */
export function displayUrl(site: Pick<SiteResponse, "subdomain" | "url">): string {
  return `${site.subdomain}.${hostOf(site.url, site.subdomain)}`;
}

/** Sites whose name, subdomain or custom domain contain the query, case-insensitively. */
export function matchesQuery(site: Pick<SiteResponse, "name" | "subdomain" | "domain">, query: string): boolean {
  const needle = query.trim().toLowerCase();
  if (!needle) return true;
  return [site.name, site.subdomain, site.domain ?? ""].some((field) => field.toLowerCase().includes(needle));
}

/** Newest first; ties keep the server's order. */
export function newestFirst<T extends Pick<SiteResponse, "created_at">>(sites: readonly T[]): T[] {
  return [...sites].sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at));
}

/** Search, then the Filter menu: an empty status set means no status filter. */
export function filterSites<T extends SiteResponse>(sites: readonly T[], query: string, statuses: ReadonlySet<ListStatus>): T[] {
  return newestFirst(sites).filter((site) => matchesQuery(site, query) && (statuses.size === 0 || statuses.has(listStatusOf(site))));
}

/** ?status=active,marked_for_deletion ⇄ a set; unknown values are ignored. */
export function parseStatusParam(value: string | null): Set<ListStatus> {
  const known = new Set<string>(LIST_STATUSES);
  return new Set(
    (value ?? "")
      .split(",")
      .map((part) => part.trim())
      .filter((part): part is ListStatus => known.has(part)),
  );
}

export function formatStatusParam(statuses: ReadonlySet<ListStatus>): string {
  return LIST_STATUSES.filter((status) => statuses.has(status)).join(",");
}
