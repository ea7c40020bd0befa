// The Files tab's history reads. Their keys sit under the site's (["sites", id, …]), so every
// write that refreshes the site (a restore, an upload, a deletion) refreshes them too.
import { useQuery } from "@tanstack/react-query";
import type { CompareResponse, DeletedFilesResponse, HistoryResponse, LivePeriodsResponse } from "../../common/history";
import { api } from "./api";

const base = (siteId: string) => `/api/sites/${encodeURIComponent(siteId)}`;

export const historyKeys = {
  history: (siteId: string, path: string, folder: boolean) => ["sites", siteId, "history", folder ? "folder" : "file", path] as const,
  deleted: (siteId: string) => ["sites", siteId, "history", "deleted"] as const,
  livePeriods: (siteId: string) => ["sites", siteId, "history", "live-periods"] as const,
  compare: (siteId: string, from: string, to: string, path: string | null) => ["sites", siteId, "compare", from, to, path ?? ""] as const,
};

/** A file's or folder's versions (a folder with path "": the whole site). `target` null: nothing asked yet. */
export function useHistory(siteId: string, target: { path: string; folder: boolean } | null) {
  return useQuery({
    queryKey: historyKeys.history(siteId, target?.path ?? "", target?.folder ?? true),
    queryFn: () => {
      const query = new URLSearchParams({ path: target!.path, ...(target!.folder ? { folder: "true" } : {}) });
      return api<HistoryResponse>(`${base(siteId)}/history?${query.toString()}`);
    },
    enabled: target !== null,
  });
}

export function useDeletedFiles(siteId: string, enabled: boolean) {
  return useQuery({
    queryKey: historyKeys.deleted(siteId),
    queryFn: async () => (await api<DeletedFilesResponse>(`${base(siteId)}/history/deleted`)).files,
    enabled,
  });
}

export function useLivePeriods(siteId: string, enabled: boolean) {
  return useQuery({
    queryKey: historyKeys.livePeriods(siteId),
    queryFn: async () => (await api<LivePeriodsResponse>(`${base(siteId)}/history/live-periods`)).periods,
    enabled,
  });
}

/** Two versions compared, with the line diff of `path` when one is given. */
export function useCompare(siteId: string, pair: { from: string; to: string } | null, path: string | null) {
  return useQuery({
    queryKey: historyKeys.compare(siteId, pair?.from ?? "", pair?.to ?? "", path),
    queryFn: () => {
      const query = new URLSearchParams({ from: pair!.from, to: pair!.to, ...(path ? { path } : {}) });
      return api<CompareResponse>(`${base(siteId)}/compare?${query.toString()}`);
    },
    enabled: pair !== null && pair.from !== pair.to,
    // A comparison of two published versions never changes.
    staleTime: Infinity,
  });
}

/** Where a version of a file downloads from. */
export function versionDownloadUrl(siteId: string, deploymentId: string, path: string): string {
  return `${base(siteId)}/deployments/${encodeURIComponent(deploymentId)}/download?${new URLSearchParams({ path }).toString()}`;
}
