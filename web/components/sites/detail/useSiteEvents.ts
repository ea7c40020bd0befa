// Live updates for one site page: deployments change status on the server (a publish runs in the
// background, another tab rolls back), custom domains move through provisioning, visits are
// rolled up into analytics, and the page follows without a reload.
import { useEffect } from "react";
import { useQueryClient } from "@tanstack/react-query";
import type { DeploymentResponse } from "../../../../common/sites";
import { analyticsKeys } from "../../../lib/analyticsQueries";
import { queryKeys } from "../../../lib/queries";
import { subscribeServerEvents } from "../../../lib/serverEvents";
import { upsertDeployment } from "./paths";

export function useSiteEvents(siteId: string | undefined) {
  const queryClient = useQueryClient();

  useEffect(() => {
    if (!siteId) return;
    // The tab's one stream, shared with the bell (lib/serverEvents.ts).
    return subscribeServerEvents({
      onEvent: (event) => {
        if (event.type === "notification" || event.site_id !== siteId) return;
        if (event.type === "analytics") {
          // New roll-ups arrive every 10 s while the site is visited: refresh its figures (and
          // the list's 7-day views), not its files and deployments.
          void queryClient.invalidateQueries({
            queryKey: analyticsKeys.site(siteId),
          });
          void queryClient.invalidateQueries({
            queryKey: queryKeys.sites,
            exact: true,
          });
          return;
        }
        if (event.type === "domain") {
          void queryClient.invalidateQueries({ queryKey: queryKeys.domains });
          return;
        }
        if (event.type === "deployment") {
          // Show the new status at once; the refetch below then brings the exact server state.
          queryClient.setQueryData<DeploymentResponse[]>(queryKeys.deployments(siteId), (list) =>
            list ? upsertDeployment(list, event.deployment) : list,
          );
        }
        // Prefix match: the site, its folders and its deployments.
        void queryClient.invalidateQueries({
          queryKey: queryKeys.site(siteId),
        });
        void queryClient.invalidateQueries({
          queryKey: queryKeys.sites,
          exact: true,
        });
      },
      onOpen: (reconnected) => {
        // Events sent while the connection was down are gone; catch up by refetching.
        if (!reconnected) return;
        void queryClient.invalidateQueries({
          queryKey: queryKeys.site(siteId),
        });
        void queryClient.invalidateQueries({ queryKey: queryKeys.domains });
      },
    });
  }, [siteId, queryClient]);
}
