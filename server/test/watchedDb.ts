// A database as an edge worker has it (edge/workers/dbProxy.ts), run on a real one in the same
// thread, so that a test sees each statement as it is sent and can hold them back: how many
// statements a piece of the edge runs, and what happens between them.
import type { Db } from "../db/client";
import { proxiedDb, runProxiedQuery } from "../edge/workers/dbProxy";

export interface WatchedDb {
  db: Db;
  /** The SQL of every statement sent so far, in order. */
  statements: string[];
  /** Called with each statement's SQL as it is sent. */
  onStatement: ((text: string) => void) | undefined;
  /** While set, statements wait until release(). */
  held: boolean;
  release(): void;
}

export function watchedDb(real: Db): WatchedDb {
  const waiting: (() => void)[] = [];
  const watched: WatchedDb = {
    db: undefined as unknown as Db,
    statements: [],
    onStatement: undefined,
    held: false,
    release() {
      watched.held = false;
      for (const run of waiting.splice(0)) run();
    },
  };
  const proxy = proxiedDb((id, text, params, method) => {
    watched.statements.push(text);
    watched.onStatement?.(text);
    const run = () =>
      void runProxiedQuery(real, text, params, method).then(
        (result) => proxy.settle(id, result, undefined),
        (error: unknown) => proxy.settle(id, undefined, { message: String(error) }),
      );
    if (watched.held) waiting.push(run);
    else run();
  });
  watched.db = proxy.db;
  return watched;
}
