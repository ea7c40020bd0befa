// The Files tab's folder path: kept in the URL (?path=a/b) so a reload or a shared link opens
// the same folder. The API names a folder by its parent path, null at the root.
import type { DeploymentResponse } from "../../../../common/sites";

export interface Crumb {
  label: string;
  /** The folder this crumb opens; null is the site's root. */
  path: string | null;
}

/** "/a//b/" → "a/b"; "" or only slashes → null (the root). Tolerates hand-edited URLs. */
export function normalizeFolderPath(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const segments = raw.split("/").filter((segment) => segment.trim() !== "");
  return segments.length === 0 ? null : segments.join("/");
}

/** Home, then one crumb per folder of the path, each opening the path up to itself. */
export function breadcrumbsFromPath(path: string | null): Crumb[] {
  const crumbs: Crumb[] = [{ label: "Home", path: null }];
  const segments = normalizeFolderPath(path)?.split("/") ?? [];
  segments.forEach((label, index) => {
    crumbs.push({ label, path: segments.slice(0, index + 1).join("/") });
  });
  return crumbs;
}

/** The path of a child folder named `name` inside `parent`. */
export function childPath(parent: string | null, name: string): string {
  return parent ? `${parent}/${name}` : name;
}

/**
 * Puts a deployment pushed by a server event into the cached list, replacing the same id,
 * newest version first, so a status change shows before the refetch lands.
 */
export function upsertDeployment(list: readonly DeploymentResponse[], next: DeploymentResponse): DeploymentResponse[] {
  const others = list.filter((deployment) => deployment.id !== next.id);
  // Only one version is live at a time: the pushed one going live demotes the rest.
  const adjusted = next.is_live ? others.map((d) => (d.is_live ? { ...d, is_live: false } : d)) : others;
  return [...adjusted, next].sort((a, b) => b.version - a.version);
}
