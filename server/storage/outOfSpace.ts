// A write refused because the disk is full (ENOSPC) or the account's disk quota is spent (EDQUOT):
// not a bug to report as a 500 but a state the operator must fix, and the user should be told so.
const OUT_OF_SPACE = new Set(["ENOSPC", "EDQUOT"]);

/** Whether `error`, or an error it wraps (`cause`), is a write that found no space left. */
export function isOutOfSpace(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    if (OUT_OF_SPACE.has((current as NodeJS.ErrnoException).code ?? "")) return true;
  }
  return false;
}
