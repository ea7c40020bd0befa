// A site's Analytics tab reads GET /api/sites/:id/analytics. The key sits under the site's
// (["sites", id, …]), so a reconnecting event stream that refreshes the site refreshes this too;
// an `analytics` event refreshes only these keys (useSiteEvents).
import { useQuery } from "@tanstack/react-query";
import type { AnalyticsRange, AnalyticsResponse } from "../../common/analytics";
import { api } from "./api";

/**
 * A fallback for a dropped event stream: roll-ups land every 10 s while visits come in, and the
 * stream's `analytics` event normally brings them at once.
 */
export const ANALYTICS_POLL_MS = 60_000;

export const analyticsKeys = {
  /** Every range of one site: what an `analytics` event invalidates. */
  site: (siteId: string) => ["sites", siteId, "analytics"] as const,
  range: (siteId: string, range: AnalyticsRange) => ["sites", siteId, "analytics", range] as const,
};

export function useSiteAnalytics(siteId: string, range: AnalyticsRange) {
  return useQuery({
    queryKey: analyticsKeys.range(siteId, range),
    queryFn: () => api<AnalyticsResponse>(`/api/sites/${encodeURIComponent(siteId)}/analytics?range=${range}`),
    // Switching ranges keeps the last figures on screen (dimmed) instead of flashing skeletons;
    // another site's figures are never shown in the meantime.
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[1] === siteId ? previous : undefined),
    refetchInterval: ANALYTICS_POLL_MS,
    staleTime: 5_000,
  });
}
