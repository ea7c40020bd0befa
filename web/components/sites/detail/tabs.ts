// The site page's tab and folder live in the URL (?tab=deployments, ?path=a/b), so a reload or a
// shared link opens the same view.
import { normalizeFolderPath } from "./paths";

export const SITE_TABS = ["files", "deployments", "analytics", "sharing", "settings"] as const;
export type SiteTab = (typeof SITE_TABS)[number];

export const SITE_TAB_LABEL: Record<SiteTab, string> = {
  files: "Files",
  deployments: "Deployments",
  analytics: "Analytics",
  sharing: "Sharing",
  settings: "Settings",
};

/** Unknown or missing → Files, the tab a site page opens on. */
export function parseTab(value: string | null): SiteTab {
  return (SITE_TABS as readonly string[]).includes(value ?? "") ? (value as SiteTab) : "files";
}

/**
 * The next query string for a tab or folder change. The default tab and the root folder are
 * left out, so the plain address stays plain; the folder is kept across tabs, so coming back to
 * Files returns to it.
 */
export function nextSearch(current: URLSearchParams, change: { tab?: SiteTab; path?: string | null }): URLSearchParams {
  const next = new URLSearchParams(current);
  if (change.tab !== undefined) {
    if (change.tab === "files") next.delete("tab");
    else next.set("tab", change.tab);
  }
  if (change.path !== undefined) {
    const path = normalizeFolderPath(change.path);
    if (path) next.set("path", path);
    else next.delete("path");
  }
  return next;
}
