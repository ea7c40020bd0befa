// The CLI sign-in page's rules and server state: the code a person types, the request it names
// (GET /api/cli/login/:code) and its answer (approve or deny).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { z } from "zod";
import { DEVICE_LOGIN_TEXT, normalizeUserCode, formatUserCode, type DeviceLoginResponse } from "../../../common/deviceLogin";
import { api, ApiError, errorDescription } from "../../lib/api";
import { queryKeys } from "../../lib/queries";

/** The code field: what normalizeUserCode accepts ("bcdf ghjk" too), handed on as "BCDF-GHJK". */
export const UserCodeForm = z.object({
  code: z
    .string()
    .trim()
    .refine((value) => normalizeUserCode(value) !== null, DEVICE_LOGIN_TEXT.codeInvalid)
    .transform((value) => formatUserCode(normalizeUserCode(value)!)),
});
export type UserCodeFields = z.input<typeof UserCodeForm>;

/** The code of the page's `?code=`, formatted, or null when there is none or it cannot be one. */
export function codeFromSearch(search: URLSearchParams): string | null {
  const code = normalizeUserCode(search.get("code") ?? "");
  return code === null ? null : formatUserCode(code);
}

/** Answers that mean the request cannot be shown (unknown, lapsed, limited), as opposed to a failed load worth retrying. */
export function isFinalRefusal(error: unknown): error is ApiError {
  return error instanceof ApiError && [400, 404, 410, 429].includes(error.status);
}

/** "in 8 minutes", "in 1 minute", "in under a minute"; null once it has lapsed. */
export function timeLeft(expiresAt: string, now: Date): string | null {
  const seconds = (new Date(expiresAt).getTime() - now.getTime()) / 1000;
  if (seconds <= 0) return null;
  if (seconds < 60) return "in under a minute";
  const minutes = Math.floor(seconds / 60);
  return `in ${minutes} ${minutes === 1 ? "minute" : "minutes"}`;
}

export function useDeviceLogin(code: string | null) {
  return useQuery({
    queryKey: queryKeys.deviceLogin(code ?? ""),
    queryFn: () => api<DeviceLoginResponse>(`/api/cli/login/${encodeURIComponent(code ?? "")}`),
    enabled: code !== null,
    // A wrong or lapsed code stays wrong; asking again would only use up the guesses.
    retry: (failures, error) => !isFinalRefusal(error) && failures < 2,
    refetchOnWindowFocus: false,
  });
}

/** Approves or denies the request; the answer replaces what the page shows. */
export function useAnswerDeviceLogin(code: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (answer: "approve" | "deny") =>
      api<DeviceLoginResponse>(`/api/cli/login/${encodeURIComponent(code)}/${answer}`, { method: "POST", json: {} }),
    onSuccess: (login) => {
      queryClient.setQueryData(queryKeys.deviceLogin(code), login);
      if (login.status === "approved") void queryClient.invalidateQueries({ queryKey: queryKeys.apiTokens });
    },
    onError: (error) => toast.error("Could not answer the sign-in request", { description: errorDescription(error) }),
  });
}
