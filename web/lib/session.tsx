// The signed-in state every screen reads: session, user, profile, account and a loading flag.
// Loading is true until the first session check completes; the profile is fetched once a user is
// present and cleared on sign-out.
import { createContext, useCallback, useContext, useEffect, useMemo, type ReactNode } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { MeResponse } from "../../common/api";
import { api, ApiError } from "./api";
import { authClient } from "./authClient";
import { queryKeys } from "./queries";

type SessionData = NonNullable<ReturnType<typeof authClient.useSession>["data"]>;

export interface SessionState {
  loading: boolean;
  session: SessionData["session"] | null;
  user: SessionData["user"] | null;
  profile: MeResponse["profile"] | null;
  /** Plan, admin flag and two-factor state; null until GET /api/me answers. */
  account: MeResponse["account"] | null;
  /** The sign-up date (ISO), from GET /api/me. */
  memberSince: string | null;
  /** Re-reads the session and GET /api/me. */
  refresh(): Promise<void>;
  /** Puts a fresh GET /api/me answer (as profile and avatar writes return) in place at once. */
  setMe: (me: MeResponse) => void;
  signOut(): Promise<void>;
}

const SessionContext = createContext<SessionState | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const { data, isPending, refetch } = authClient.useSession();
  const user = data?.user ?? null;
  const userId = user?.id;
  const me = useQuery({
    queryKey: queryKeys.me(userId),
    queryFn: () => api<MeResponse>("/api/me"),
    enabled: user !== null,
    staleTime: 60_000,
  });

  // A session revoked elsewhere (a password change, "sign out all other sessions") shows up as a
  // 401 from the next API call: re-check the session, so the guard sends this tab to sign-in.
  useEffect(() => {
    return queryClient.getQueryCache().subscribe((event) => {
      if (event.type !== "updated" || event.action.type !== "error") return;
      const error: unknown = event.action.error;
      if (error instanceof ApiError && error.status === 401) void refetch();
    });
  }, [queryClient, refetch]);

  const refresh = useCallback(async () => {
    await refetch();
    await queryClient.invalidateQueries({ queryKey: ["me"] });
  }, [refetch, queryClient]);

  const setMe = useCallback((next: MeResponse) => queryClient.setQueryData(queryKeys.me(next.user.id), next), [queryClient]);

  const signOut = useCallback(async () => {
    await authClient.signOut();
    queryClient.clear();
    await refetch();
  }, [queryClient, refetch]);

  const value = useMemo<SessionState>(
    () => ({
      loading: isPending,
      session: data?.session ?? null,
      user,
      profile: user ? (me.data?.profile ?? null) : null,
      account: user ? (me.data?.account ?? null) : null,
      memberSince: user ? (me.data?.user.createdAt ?? null) : null,
      refresh,
      setMe,
      signOut,
    }),
    [isPending, data, user, me.data, refresh, setMe, signOut],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionState {
  const value = useContext(SessionContext);
  if (!value) throw new Error("useSession must be used inside <SessionProvider>");
  return value;
}
