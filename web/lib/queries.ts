// The dashboard's server state: one TanStack Query hook per API read, and the keys that writes
// invalidate. Every site query sits under ["sites"], so invalidating that key refreshes the list
// and any open site page together.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { NotificationPreferences, SessionsResponse } from "../../common/account";
import type { ApiTokenListResponse } from "../../common/apiTokens";
import type { NotificationChannels } from "../../common/notifications";
import type { WebhookDeliveryListResponse, WebhookDeliveryResponse, WebhookListResponse, WebhookResponse } from "../../common/webhooks";
import { isProvisioning, type DomainListResponse, type DomainResponse } from "../../common/domains";
import type { ShareLinkListResponse, ShareLinkOpensResponse, ShareLinkResponse } from "../../common/shareLinks";
import type {
  DeploymentListResponse,
  DeploymentResponse,
  SiteFileListResponse,
  SiteFileResponse,
  SiteListResponse,
  SiteResponse,
  StatsResponse,
} from "../../common/sites";
import { api } from "./api";

export const queryKeys = {
  sites: ["sites"] as const,
  site: (id: string) => ["sites", id] as const,
  siteFiles: (id: string, parent: string | null) => ["sites", id, "files", parent ?? ""] as const,
  deployments: (id: string) => ["sites", id, "deployments"] as const,
  shareLinks: (id: string) => ["sites", id, "share-links"] as const,
  shareLinkOpens: (id: string, linkId: string) => ["sites", id, "share-links", linkId, "opens"] as const,
  /** Every domain query sits under ["domains"]: a domain event refreshes the page and the card. */
  domains: ["domains"] as const,
  siteDomains: (id: string) => ["domains", "site", id] as const,
  stats: ["stats"] as const,
  /** GET /api/me; the user's id is part of the key so one user's data never shows for another. */
  me: (userId: string | undefined) => ["me", userId ?? ""] as const,
  sessions: ["me-sessions"] as const,
  notifications: ["me-notifications"] as const,
  notificationChannels: ["me-notification-channels"] as const,
  apiTokens: ["api-tokens"] as const,
  /** Every webhook query sits under ["webhooks"]: a change refreshes the list and any open deliveries. */
  webhooks: ["webhooks"] as const,
  webhookDeliveries: (id: string) => ["webhooks", id, "deliveries"] as const,
  /** A CLI sign-in request, by its user code ("BCDF-GHJK"). */
  deviceLogin: (code: string) => ["cli-login", code] as const,
};

// The list query caches the whole answer (sites and their 7-day views); each hook selects its part.
const fetchSiteList = () => api<SiteListResponse>("/api/sites");
const selectSites = (list: SiteListResponse) => list.sites;
const selectViews7d = (list: SiteListResponse) => list.views_7d;

/** The user's sites, newest first. `enabled: false` defers the request (e.g. until a search box is used). */
export function useSites(options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: queryKeys.sites,
    queryFn: fetchSiteList,
    select: selectSites,
    staleTime: 15_000,
    enabled: options.enabled ?? true,
  });
}

/** Page views of each of the user's sites over the last 7 days (site id → views), from the same request. */
export function useSiteViews7d() {
  return useQuery({
    queryKey: queryKeys.sites,
    queryFn: fetchSiteList,
    select: selectViews7d,
    staleTime: 15_000,
  });
}

/** One site. Seeds from the list when it is already loaded, so the page opens without a spinner. */
export function useSite(id: string | undefined) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: queryKeys.site(id ?? ""),
    queryFn: () => api<SiteResponse>(`/api/sites/${encodeURIComponent(id ?? "")}`),
    enabled: Boolean(id),
    initialData: () => queryClient.getQueryData<SiteListResponse>(queryKeys.sites)?.sites.find((site) => site.id === id),
    initialDataUpdatedAt: () => queryClient.getQueryState(queryKeys.sites)?.dataUpdatedAt,
  });
}

/** The files of one folder of a site (null: the root). */
export function useSiteFiles(id: string | undefined, parent: string | null = null) {
  return useQuery({
    queryKey: queryKeys.siteFiles(id ?? "", parent),
    queryFn: async (): Promise<SiteFileResponse[]> => {
      const query = parent ? `?parent=${encodeURIComponent(parent)}` : "";
      return (await api<SiteFileListResponse>(`/api/sites/${encodeURIComponent(id ?? "")}/files${query}`)).files;
    },
    enabled: Boolean(id),
  });
}

/** A site's deployments, newest first. */
export function useDeployments(id: string | undefined) {
  return useQuery({
    queryKey: queryKeys.deployments(id ?? ""),
    queryFn: async (): Promise<DeploymentResponse[]> =>
      (await api<DeploymentListResponse>(`/api/sites/${encodeURIComponent(id ?? "")}/deployments`)).deployments,
    enabled: Boolean(id),
  });
}

/** The overview's figures and the user's plan limits. */
export function useStats() {
  return useQuery({
    queryKey: queryKeys.stats,
    queryFn: () => api<StatsResponse>("/api/stats"),
    staleTime: 30_000,
  });
}

/** The user's signed-in browsers, the current one first. */
export function useAccountSessions() {
  return useQuery({
    queryKey: queryKeys.sessions,
    queryFn: async () => (await api<SessionsResponse>("/api/me/sessions")).sessions,
    // "Active 5 minutes ago" drifts; refresh when the user comes back to the tab.
    refetchOnWindowFocus: true,
  });
}

/** Which e-mails the user wants. */
/** Where each kind of notice goes (Settings, Notifications). */
export function useNotificationChannels() {
  return useQuery({
    queryKey: queryKeys.notificationChannels,
    queryFn: () => api<NotificationChannels>("/api/me/notifications/channels"),
  });
}

export function useNotificationPreferences() {
  return useQuery({
    queryKey: queryKeys.notifications,
    queryFn: () => api<NotificationPreferences>("/api/me/notifications"),
  });
}

/** While a domain is being provisioned its status is re-read this often (events may be missed). */
export const DOMAIN_POLL_MS = 5_000;

function pollWhileProvisioning(domains: DomainResponse[] | undefined): number | false {
  return domains?.some((domain) => isProvisioning(domain.status)) ? DOMAIN_POLL_MS : false;
}

/** Every custom domain of the user, across sites, newest first. */
export function useDomains() {
  return useQuery({
    queryKey: queryKeys.domains,
    queryFn: async () => (await api<DomainListResponse>("/api/domains")).domains,
    refetchInterval: (query) => pollWhileProvisioning(query.state.data),
  });
}

/** One site's custom domains. */
export function useSiteDomains(id: string) {
  return useQuery({
    queryKey: queryKeys.siteDomains(id),
    queryFn: async () => (await api<DomainListResponse>(`/api/sites/${encodeURIComponent(id)}/domains`)).domains,
    refetchInterval: (query) => pollWhileProvisioning(query.state.data),
  });
}

/** A site's share links, newest first. Views change as visitors open them, so focus refreshes. */
export function useShareLinks(id: string) {
  return useQuery({
    queryKey: queryKeys.shareLinks(id),
    queryFn: async (): Promise<ShareLinkResponse[]> => (await api<ShareLinkListResponse>(`/api/sites/${encodeURIComponent(id)}/share-links`)).links,
    refetchOnWindowFocus: true,
  });
}

/** The last opens of one share link; fetched only while its log is open. */
export function useShareLinkOpens(id: string, linkId: string, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.shareLinkOpens(id, linkId),
    queryFn: async () =>
      (await api<ShareLinkOpensResponse>(`/api/sites/${encodeURIComponent(id)}/share-links/${encodeURIComponent(linkId)}/opens`)).opens,
    enabled,
    refetchOnWindowFocus: true,
  });
}

/** The user's API tokens, newest first. "Last used" changes while scripts run, so focus refreshes. */
export function useApiTokens() {
  return useQuery({
    queryKey: queryKeys.apiTokens,
    queryFn: async () => (await api<ApiTokenListResponse>("/api/tokens")).tokens,
    refetchOnWindowFocus: true,
  });
}

/** While a delivery is waiting to be sent its status is re-read this often: the worker sends within a second or two. */
export const WEBHOOK_POLL_MS = 3_000;

const waitingSoon = (delivery: WebhookDeliveryResponse | null | undefined) => delivery?.status === "pending" && delivery.attempts === 0;

/** The user's webhooks, newest first, each with its last delivery. */
export function useWebhooks() {
  return useQuery({
    queryKey: queryKeys.webhooks,
    queryFn: async (): Promise<WebhookResponse[]> => (await api<WebhookListResponse>("/api/webhooks")).webhooks,
    refetchOnWindowFocus: true,
    // A test or an event just queued shows its outcome without a reload.
    refetchInterval: (query) => (query.state.data?.some((webhook) => waitingSoon(webhook.last_delivery)) ? WEBHOOK_POLL_MS : false),
  });
}

/** One webhook's last deliveries; fetched only while its panel is open. */
export function useWebhookDeliveries(id: string, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.webhookDeliveries(id),
    queryFn: async () => (await api<WebhookDeliveryListResponse>(`/api/webhooks/${encodeURIComponent(id)}/deliveries`)).deliveries,
    enabled,
    refetchInterval: (query) => (query.state.data?.some(waitingSoon) ? WEBHOOK_POLL_MS : false),
  });
}
