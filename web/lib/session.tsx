// The signed-in state every screen reads: session, user, profile and a loading flag. Loading is
// true until the first session check completes; the profile is fetched once a user is present
// and cleared on sign-out.
import { createContext, useCallback, useContext, useMemo, type ReactNode } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import type { MeResponse } from "../../common/api";
import { api } from "./api";
import { authClient } from "./auth-client";

type SessionData = NonNullable<ReturnType<typeof authClient.useSession>["data"]>;

export interface SessionState {
  loading: boolean;
  session: SessionData["session"] | null;
  user: SessionData["user"] | null;
  profile: MeResponse["profile"] | null;
  refresh(): Promise<void>;
  signOut(): Promise<void>;
}

const SessionContext = createContext<SessionState | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const { data, isPending, refetch } = authClient.useSession();
  const user = data?.user ?? null;
  const me = useQuery({
    queryKey: ["me", user?.id],
    queryFn: () => api<MeResponse>("/api/me"),
    enabled: user !== null,
    staleTime: 60_000,
  });

  const refresh = useCallback(async () => {
    await refetch();
    await queryClient.invalidateQueries({ queryKey: ["me"] });
  }, [refetch, queryClient]);

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
      refresh,
      signOut,
    }),
    [isPending, data, user, me.data, refresh, signOut],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionState {
  const value = useContext(SessionContext);
  if (!value) throw new Error("useSession must be used inside <SessionProvider>");
  return value;
}
