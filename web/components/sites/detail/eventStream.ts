// A reconnecting EventSource. The browser's own retry follows the server's `retry:` hint and
// gives up for good on an HTTP error; the dashboard must keep trying with fixed delays instead
// (1 s, 2 s, 5 s, then 10 s), so every drop closes the source and this opens a new one.
import { ServerEvent } from "../../../../common/sites";

/** Reconnect delays in milliseconds, the last one repeating: quick after a blip, no busier than every 10 s while the server is away. */
export const RECONNECT_DELAYS_MS = [1000, 2000, 5000, 10000] as const;

/** The wait before reconnection attempt `attempt` (0 is the first retry after a drop). */
export function reconnectDelay(attempt: number): number {
  const index = Math.min(Math.max(0, Math.floor(attempt)), RECONNECT_DELAYS_MS.length - 1);
  return RECONNECT_DELAYS_MS[index]!;
}

/** The part of EventSource this uses, so tests can pass a fake. */
export interface EventSourceLike {
  onopen: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
  close(): void;
}

export interface EventStreamOptions {
  url: string;
  onEvent: (event: ServerEvent) => void;
  /** Called on every successful (re)connection; events sent while away are lost, so refetch. */
  onOpen?: (reconnected: boolean) => void;
  createSource?: (url: string) => EventSourceLike;
  setTimer?: (callback: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

/** Opens the stream and keeps it open until the returned function is called. */
export function openEventStream(options: EventStreamOptions): () => void {
  const createSource = options.createSource ?? ((url) => new EventSource(url, { withCredentials: true }));
  const setTimer = options.setTimer ?? ((callback, ms) => window.setTimeout(callback, ms));
  const clearTimer = options.clearTimer ?? ((handle) => window.clearTimeout(handle as number));

  let source: EventSourceLike | null = null;
  let timer: unknown = null;
  let attempt = 0;
  let everOpened = false;
  let stopped = false;

  const connect = () => {
    timer = null;
    const current = createSource(options.url);
    source = current;
    current.onopen = () => {
      attempt = 0;
      options.onOpen?.(everOpened);
      everOpened = true;
    };
    current.onmessage = (message) => {
      let parsed: ReturnType<typeof ServerEvent.safeParse>;
      try {
        parsed = ServerEvent.safeParse(JSON.parse(String(message.data)));
      } catch {
        return; // Not JSON (a comment or keep-alive): nothing to do.
      }
      if (parsed.success) options.onEvent(parsed.data);
    };
    current.onerror = () => {
      current.close();
      if (stopped || source !== current) return;
      source = null;
      timer = setTimer(connect, reconnectDelay(attempt));
      attempt += 1;
    };
  };

  connect();
  return () => {
    stopped = true;
    if (timer !== null) clearTimer(timer);
    source?.close();
    source = null;
  };
}
