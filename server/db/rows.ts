// Apart from client.ts on purpose: repositories read raw results with it, and an edge worker
// loads repositories but must not load the database drivers (it has none; dbProxy.ts runs its
// statements on the main thread), which client.ts imports.

/** Rows of a raw `db.execute(sql…)` result; both drivers answer with `{ rows }`. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

const UNQUOTED = /^[0-9A-Za-z_]+$/;

/**
 * Values that need no quoting (digests in hex, integers) as one PostgreSQL array literal, for
 * `unnest(…::text[])` or `= any(…)`: a single parameter however many there are, where an `in`
 * list costs one each. Anything else is refused rather than quoted here.
 */
export function unquotedArray(values: readonly (string | number)[]): string {
  for (const value of values) {
    // NULL unquoted is a null element, not the word.
    if (!UNQUOTED.test(String(value)) || String(value).toUpperCase() === "NULL") throw new Error(`unquotedArray: ${String(value)} needs quoting`);
  }
  return `{${values.join(",")}}`;
}
