// Changes someone is waiting for go before background work on the embedded database.
//
// PGlite runs one statement at a time, in the order they are asked for. Background work (the
// compressed forms of a deploy's files, publish checks, the worker's rounds) asks between its own
// steps, so while it ran, every statement of a request waited behind one of its statements: a
// redeploy sent while the first deploy's 1,000 files were being compressed took ~300 ms longer
// (its first request waited 330 ms for a 100 ms answer). Requests that change something (anything
// but GET, HEAD and OPTIONS: a deploy's three calls, an upload, a setting) are counted from their
// start to their answer, and background work waits for none to be under way before each of its
// steps, for at most BACKGROUND_MAX_WAIT_MS, so it still moves under steady traffic. Reads are not
// counted: the dashboard's event stream stays open for hours and would stop background work.
// On PostgreSQL statements run side by side on their own connections, and nothing waits.
import type { FastifyInstance, FastifyRequest } from "fastify";

/** The longest a background step waits for requests to finish before it goes anyway. */
export const BACKGROUND_MAX_WAIT_MS = 500;

const UNCOUNTED = new Set(["GET", "HEAD", "OPTIONS"]);

export class ForegroundRequests {
  private underWay = 0;
  private waiting: (() => void)[] = [];

  /** `enabled` false (PostgreSQL): nothing is counted and idle() never waits. */
  constructor(readonly enabled: boolean) {}

  /** Counts a request as under way; the function returned ends it, once however often it is called. */
  begin(): () => void {
    if (!this.enabled) return () => undefined;
    this.underWay++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.underWay--;
      if (this.underWay === 0) this.wake();
    };
  }

  /** Resolves when no counted request is under way, or after `maxWaitMs`. */
  idle(maxWaitMs = BACKGROUND_MAX_WAIT_MS): Promise<void> {
    if (this.underWay === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiting = this.waiting.filter((w) => w !== done);
        resolve();
      };
      const timer = setTimeout(done, maxWaitMs);
      this.waiting.push(done);
    });
  }

  private wake(): void {
    for (const done of [...this.waiting]) done();
  }
}

/** Counts the app's requests that change something, from their start to their answer or their end. */
export function countForegroundRequests(app: FastifyInstance, foreground: ForegroundRequests): void {
  if (!foreground.enabled) return;
  const ends = new WeakMap<FastifyRequest, () => void>();
  app.addHook("onRequest", async (request, reply) => {
    if (UNCOUNTED.has(request.method)) return;
    const end = foreground.begin();
    ends.set(request, end);
    // A hijacked answer or a dropped connection never reaches onResponse; the socket's close does.
    reply.raw.once("close", end);
  });
  const end = async (request: FastifyRequest) => ends.get(request)?.();
  app.addHook("onResponse", end);
  app.addHook("onRequestAbort", end);
}
