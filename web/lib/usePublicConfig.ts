// The operator's public settings (contact details, sites domain). They only change when the server
// restarts, so one fetch per page load is enough.
import { useQuery } from "@tanstack/react-query";
import type { PublicConfigResponse } from "../../common/api";
import { api } from "./api";

export function usePublicConfig() {
  return useQuery({
    queryKey: ["public-config"],
    queryFn: () => api<PublicConfigResponse>("/api/config"),
    staleTime: Infinity,
  });
}
