// The site page's writes. Every change to a site's files publishes a new deployment on the
// server, so each write refreshes the site (live version, size), its deployments and the
// overview's figures, not only the thing it touched.
import { useMutation, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { SITE_TEXT, type DeploymentResponse, type SiteResponse } from "../../../../common/sites";
import { api, errorDescription } from "../../../lib/api";
import { queryKeys } from "../../../lib/queries";

export function siteUrl(siteId: string, rest = ""): string {
  return `/api/sites/${encodeURIComponent(siteId)}${rest}`;
}

/** After any write: the site, its folders, its deployments, the list and the figures. */
export function refreshSite(queryClient: QueryClient, siteId: string): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.site(siteId) }),
    queryClient.invalidateQueries({ queryKey: queryKeys.sites, exact: true }),
    queryClient.invalidateQueries({ queryKey: queryKeys.stats }),
  ]);
}

function useSiteWrite(siteId: string) {
  const queryClient = useQueryClient();
  const store = (site: SiteResponse) => queryClient.setQueryData(queryKeys.site(siteId), site);
  return { queryClient, store };
}

/** 'Deploy Site' and 'Deploy Now': publishes the current files as a new version. */
export function useDeploySite(siteId: string) {
  const { queryClient } = useSiteWrite(siteId);
  return useMutation({
    mutationFn: () =>
      api<DeploymentResponse>(siteUrl(siteId, "/deployments"), {
        method: "POST",
      }),
    onSuccess: (deployment) => {
      if (deployment.status === "success") {
        toast.success("Site deployed", {
          description: `Version ${deployment.version} is live.`,
        });
      } else if (deployment.status === "failed") {
        toast.error(SITE_TEXT.deployFailed, {
          description: deployment.error ?? SITE_TEXT.tryLater,
        });
      } else {
        toast.success("Deployment started", {
          description: `Version ${deployment.version} is being published.`,
        });
      }
    },
    onError: (error) =>
      toast.error("Failed to deploy site", {
        description: errorDescription(error),
      }),
    onSettled: () => refreshSite(queryClient, siteId),
  });
}

export function useRestoreSite(siteId: string) {
  const { queryClient, store } = useSiteWrite(siteId);
  return useMutation({
    mutationFn: () => api<SiteResponse>(siteUrl(siteId, "/restore"), { method: "POST" }),
    onSuccess: (site) => {
      store(site);
      toast.success(SITE_TEXT.restored, {
        description: SITE_TEXT.restoredDescription,
      });
    },
    onError: () => toast.error(SITE_TEXT.restoreFailed, { description: SITE_TEXT.tryLater }),
    // A restore changes the site's status and what it serves, so the site and everything under it are refetched.
    onSettled: () => refreshSite(queryClient, siteId),
  });
}

/** Used behind its confirmation, which tells a failure itself. */
export function useDeleteSite(siteId: string) {
  const { queryClient, store } = useSiteWrite(siteId);
  return useMutation({
    mutationFn: () => api<SiteResponse>(siteUrl(siteId), { method: "DELETE" }),
    onSuccess: (site) => {
      store(site);
      toast.success(SITE_TEXT.deleted, {
        description: SITE_TEXT.deletedDescription,
      });
    },
    onSettled: () => refreshSite(queryClient, siteId),
  });
}

/** Used behind its confirmation, which tells a failure itself. */
export function useRollback(siteId: string) {
  const { queryClient } = useSiteWrite(siteId);
  return useMutation({
    mutationFn: (deployment: DeploymentResponse) =>
      api<DeploymentResponse>(siteUrl(siteId, `/deployments/${encodeURIComponent(deployment.id)}/rollback`), {
        method: "POST",
      }),
    onSuccess: (deployment) =>
      toast.success(`Version ${deployment.version} is live`, {
        description: "Visitors see this version from now on.",
      }),
    onSettled: () => refreshSite(queryClient, siteId),
  });
}
