// BERTH_DEBUG=1: besides a bug's stack, what each step took, on stderr (milliseconds since the
// process started, so Node's own start shows too), to tell where a slow deploy spends its time.
import type { Context } from "./context";

export type Trace = (what: string) => void;

/** A function that writes one timed line per call when BERTH_DEBUG is set, and does nothing otherwise. */
export function traceOf(ctx: Pick<Context, "env" | "reporter">): Trace {
  if (!ctx.env.BERTH_DEBUG) return () => undefined;
  let last = performance.now();
  return (what) => {
    const now = performance.now();
    ctx.reporter.line(`debug: ${now.toFixed(0).padStart(6)} ms (+${(now - last).toFixed(0)}) ${what}`);
    last = now;
  };
}
