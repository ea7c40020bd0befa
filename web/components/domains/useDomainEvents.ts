// Live status on /dashboard/domains: the provisioning job reports each step as a `domain` event on
// /api/events, and the list refetches. The 5 s poll in useDomains covers a dropped stream.
import { useEffect } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { queryKeys } from "../../lib/queries";
import { openEventStream } from "../sites/detail/eventStream";

export function useDomainEvents() {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    const refresh = () => void queryClient.invalidateQueries({ queryKey: queryKeys.domains });
    return openEventStream({
      url: "/api/events",
      onEvent: (event) => {
        if (event.type === "domain") refresh();
      },
      // Events sent while the connection was down are gone; catch up by refetching.
      onOpen: (reconnected) => {
        if (reconnected) refresh();
      },
    });
  }, [queryClient]);
}
