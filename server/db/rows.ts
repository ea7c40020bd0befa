// Apart from client.ts on purpose: repositories read raw results with it, and an edge worker
// loads repositories but must not load the database drivers (it has none; dbProxy.ts runs its
// statements on the main thread), which client.ts imports.

/** Rows of a raw `db.execute(sql…)` result; both drivers answer with `{ rows }`. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
