// One /api/events stream per tab, shared by everything that listens (the bell on every page, a
// site page's live updates): browsers allow only six connections per host over HTTP/1.1, so a
// stream per listener would soon leave none for the API. The stream opens with the first
// listener and closes with the last.
import { useEffect, useRef } from "react";
import type { ServerEvent } from "../../common/sites";
import { openEventStream } from "../components/sites/detail/eventStream";

export interface ServerEventListener {
  onEvent: (event: ServerEvent) => void;
  /** Every (re)connection; events sent while away are lost, so a reconnection means refetch. */
  onOpen?: (reconnected: boolean) => void;
}

const listeners = new Set<ServerEventListener>();
let close: (() => void) | null = null;

export function subscribeServerEvents(listener: ServerEventListener): () => void {
  listeners.add(listener);
  if (!close && typeof EventSource !== "undefined") {
    close = openEventStream({
      url: "/api/events",
      onEvent: (event) => listeners.forEach((l) => l.onEvent(event)),
      onOpen: (reconnected) => listeners.forEach((l) => l.onOpen?.(reconnected)),
    });
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && close) {
      close();
      close = null;
    }
  };
}

/** Listens while the component is mounted; the latest handlers are called, without resubscribing. */
export function useServerEvents(listener: ServerEventListener, enabled = true): void {
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(() => {
    if (!enabled) return;
    return subscribeServerEvents({
      onEvent: (event) => latest.current.onEvent(event),
      onOpen: (reconnected) => latest.current.onOpen?.(reconnected),
    });
  }, [enabled]);
}
