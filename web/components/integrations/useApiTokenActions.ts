// The API tokens card's writes: create (the answer holds the secret, shown once) and revoke. Each
// refreshes the list.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { API_TOKEN_TEXT, type ApiTokenResponse, type CreateApiTokenRequest, type CreatedApiTokenResponse } from "../../../common/apiTokens";
import { api, errorDescription } from "../../lib/api";
import { queryKeys } from "../../lib/queries";

function useRefreshTokens() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: queryKeys.apiTokens });
}

export function useCreateApiToken() {
  const refresh = useRefreshTokens();
  return useMutation({
    mutationFn: (body: CreateApiTokenRequest) => api<CreatedApiTokenResponse>("/api/tokens", { method: "POST", json: body }),
    onSuccess: ({ token }) => toast.success(API_TOKEN_TEXT.created, { description: token.name }),
    onError: (error) => toast.error(API_TOKEN_TEXT.createFailed, { description: errorDescription(error) }),
    onSettled: refresh,
  });
}

/** Revokes a token. Used behind its confirmation, which tells a failure itself. */
export function useRevokeApiToken() {
  const refresh = useRefreshTokens();
  return useMutation({
    mutationFn: (token: ApiTokenResponse) => api<void>(`/api/tokens/${encodeURIComponent(token.id)}`, { method: "DELETE" }),
    onSuccess: (_, token) => toast.success(API_TOKEN_TEXT.revoked, { description: token.name }),
    onSettled: refresh,
  });
}
