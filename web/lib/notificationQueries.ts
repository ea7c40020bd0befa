// The bell's server state: the feed (pages of notices), the unread count, and marking read. A
// `notification` server event, or a reconnection after missed events, refetches both, so every
// open tab follows without a reload.
import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData } from "@tanstack/react-query";
import type { MarkAllReadResponse, Notification, NotificationListResponse, UnreadCountResponse } from "../../common/notifications";
import { api } from "./api";
import { useServerEvents } from "./serverEvents";

export const notificationKeys = {
  all: ["notifications"] as const,
  feed: ["notifications", "feed"] as const,
  unread: ["notifications", "unread"] as const,
};

type Feed = InfiniteData<NotificationListResponse, string | null>;

export function useUnreadCount() {
  return useQuery({
    queryKey: notificationKeys.unread,
    queryFn: () => api<UnreadCountResponse>("/api/notifications/unread-count"),
    select: (answer) => answer.unread_count,
    staleTime: 60_000,
  });
}

/** The feed, newest first; loaded when the bell opens, older pages on demand. */
export function useNotificationFeed(enabled: boolean) {
  return useInfiniteQuery({
    queryKey: notificationKeys.feed,
    queryFn: ({ pageParam }) => api<NotificationListResponse>(`/api/notifications${pageParam ? `?before=${encodeURIComponent(pageParam)}` : ""}`),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    enabled,
  });
}

/** Keeps the bell live: a new notice, or a reconnection after events were missed, refetches. */
export function useNotificationEvents() {
  const queryClient = useQueryClient();
  useServerEvents({
    onEvent: (event) => {
      if (event.type === "notification") void queryClient.invalidateQueries({ queryKey: notificationKeys.all });
    },
    onOpen: (reconnected) => {
      if (reconnected) void queryClient.invalidateQueries({ queryKey: notificationKeys.all });
    },
  });
}

/** The feed's pages with `change` applied to every notice (what marking read shows at once). */
function updateFeed(queryClient: ReturnType<typeof useQueryClient>, change: (notice: Notification) => Notification) {
  queryClient.setQueryData<Feed>(notificationKeys.feed, (feed) =>
    feed ? { ...feed, pages: feed.pages.map((page) => ({ ...page, notifications: page.notifications.map(change) })) } : feed,
  );
}

export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api<Notification>(`/api/notifications/${encodeURIComponent(id)}/read`, { method: "POST", json: {} }),
    onSuccess: (read) => {
      updateFeed(queryClient, (notice) => (notice.id === read.id ? read : notice));
      void queryClient.invalidateQueries({ queryKey: notificationKeys.unread });
    },
  });
}

export function useMarkAllRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<MarkAllReadResponse>("/api/notifications/read-all", { method: "POST", json: {} }),
    onSuccess: () => {
      const now = new Date().toISOString();
      updateFeed(queryClient, (notice) => (notice.read_at ? notice : { ...notice, read_at: now }));
      queryClient.setQueryData<UnreadCountResponse>(notificationKeys.unread, { unread_count: 0 });
      void queryClient.invalidateQueries({ queryKey: notificationKeys.all });
    },
  });
}
