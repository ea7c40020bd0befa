// The admin page's server state (/api/admin/*). Every query sits under ["admin"], so a write can
// refresh every page of the user list at once. Writes to a user are applied to the cached pages at
// once (optimistic) and rolled back if the server refuses them.
import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import type { AdminStorageResponse, AdminUser, AdminUserUpdate, AdminUsersResponse } from "../../common/admin";
import type { AdminMessage, AdminMessagesResponse, AdminUpgradeRequestsResponse, UpgradeRequest } from "../../common/support";
import { api } from "./api";
import { useServerEvents } from "./serverEvents";

export const adminKeys = {
  all: ["admin"] as const,
  users: ["admin", "users"] as const,
  userPage: (search: string, page: number) => ["admin", "users", search, page] as const,
  storage: ["admin", "storage"] as const,
};

export function adminUsersPath(search: string, page: number): string {
  const params = new URLSearchParams();
  if (search) params.set("search", search);
  if (page > 1) params.set("page", String(page));
  const query = params.toString();
  return `/api/admin/users${query ? `?${query}` : ""}`;
}

function userPath(id: string, rest = ""): string {
  return `/api/admin/users/${encodeURIComponent(id)}${rest}`;
}

/** One page of users, newest first. The previous page stays on screen while the next loads. */
export function useAdminUsers(search: string, page: number) {
  return useQuery({
    queryKey: adminKeys.userPage(search, page),
    queryFn: () => api<AdminUsersResponse>(adminUsersPath(search, page)),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
}

/** The disk Berth's files take, compressed copies included, beside what quotas count. */
export function useAdminStorage() {
  return useQuery({
    queryKey: adminKeys.storage,
    queryFn: () => api<AdminStorageResponse>("/api/admin/storage"),
    staleTime: 30_000,
  });
}

type Snapshot = [readonly unknown[], AdminUsersResponse | undefined][];

function patchCachedUser(queryClient: QueryClient, id: string, patch: (user: AdminUser) => AdminUser): void {
  queryClient.setQueriesData<AdminUsersResponse>(
    { queryKey: adminKeys.users },
    (data) =>
      data && {
        ...data,
        users: data.users.map((user) => (user.id === id ? patch(user) : user)),
      },
  );
}

/** What the row shows while the server applies `update`. */
export function applyUpdate(user: AdminUser, update: AdminUserUpdate): AdminUser {
  return {
    ...user,
    ...(update.plan !== undefined && { plan: update.plan }),
    ...(update.isAdmin !== undefined && { isAdmin: update.isAdmin }),
    ...(update.banned !== undefined && {
      bannedAt: update.banned ? (user.bannedAt ?? new Date().toISOString()) : null,
    }),
  };
}

/** PATCH /api/admin/users/:id: plan, ban, admin. */
export function useUpdateAdminUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { user: AdminUser; update: AdminUserUpdate }) =>
      api<AdminUser>(userPath(input.user.id), {
        method: "PATCH",
        json: input.update,
      }),
    onMutate: async ({ user, update }): Promise<Snapshot> => {
      await queryClient.cancelQueries({ queryKey: adminKeys.users });
      const snapshot = queryClient.getQueriesData<AdminUsersResponse>({
        queryKey: adminKeys.users,
      });
      patchCachedUser(queryClient, user.id, (cached) => applyUpdate(cached, update));
      return snapshot;
    },
    onSuccess: (saved) => patchCachedUser(queryClient, saved.id, () => saved),
    onError: (_error, _input, snapshot) => {
      for (const [key, data] of snapshot ?? []) queryClient.setQueryData(key, data);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.users }),
  });
}

/** POST /api/admin/users/:id/password-reset: mails the user a reset link. */
export function useSendPasswordReset() {
  return useMutation({
    mutationFn: (user: AdminUser) => api<unknown>(userPath(user.id, "/password-reset"), { method: "POST" }),
  });
}

/** DELETE /api/admin/users/:id: the account and everything it owns. */
export function useDeleteAdminUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (user: AdminUser) => api<unknown>(userPath(user.id), { method: "DELETE" }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.users }),
  });
}

// ── The inbox and the requests for Pro ────────────────────────────────────────

export const inboxKeys = {
  messages: ["admin", "messages"] as const,
  messagePage: (page: number) => ["admin", "messages", page] as const,
  upgrades: ["admin", "upgrade-requests"] as const,
  upgradePage: (page: number) => ["admin", "upgrade-requests", page] as const,
};

const pageQuery = (page: number) => (page > 1 ? `?page=${page}` : "");

/**
 * A new message or request for Pro reaches admins as a notice in their feed: while the admin
 * page is open, any notice refreshes its inbox and requests, so neither waits out its cache.
 */
export function useInboxLiveUpdates(enabled: boolean): void {
  const queryClient = useQueryClient();
  useServerEvents(
    {
      onEvent: (event) => {
        if (event.type !== "notification") return;
        void queryClient.invalidateQueries({ queryKey: inboxKeys.messages });
        void queryClient.invalidateQueries({ queryKey: inboxKeys.upgrades });
      },
    },
    enabled,
  );
}

/** A page of contact and support messages, newest first, with the count not yet handled. */
export function useAdminMessages(page: number, enabled = true) {
  return useQuery({
    queryKey: inboxKeys.messagePage(page),
    queryFn: () => api<AdminMessagesResponse>(`/api/admin/messages${pageQuery(page)}`),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
    enabled,
  });
}

/** A page of pending requests for a higher plan, oldest first. */
export function useAdminUpgradeRequests(page: number, enabled = true) {
  return useQuery({
    queryKey: inboxKeys.upgradePage(page),
    queryFn: () => api<AdminUpgradeRequestsResponse>(`/api/admin/upgrade-requests${pageQuery(page)}`),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
    enabled,
  });
}

const messagePath = (id: string, rest = "") => `/api/admin/messages/${encodeURIComponent(id)}${rest}`;

/** Marks a message handled or not; the inbox refreshes (its count changes). */
export function useSetMessageHandled() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, handled }: { id: string; handled: boolean }) => api<AdminMessage>(messagePath(id), { method: "PATCH", json: { handled } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: inboxKeys.messages }),
  });
}

export function useReplyToMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, message }: { id: string; message: string }) =>
      api<AdminMessage>(messagePath(id, "/reply"), { method: "POST", json: { message } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: inboxKeys.messages }),
  });
}

/** Approves or declines a request; an approval changes a user's plan, so the user list refreshes too. */
export function useAnswerUpgradeRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, decision }: { id: string; decision: "approve" | "decline" }) =>
      api<UpgradeRequest>(`/api/admin/upgrade-requests/${encodeURIComponent(id)}/answer`, { method: "POST", json: { decision } }),
    onSettled: () =>
      Promise.all([queryClient.invalidateQueries({ queryKey: inboxKeys.upgrades }), queryClient.invalidateQueries({ queryKey: adminKeys.users })]),
  });
}
