// A line diff for comparing two versions of a text file: Myers' O(ND) algorithm ("An O(ND)
// Difference Algorithm and Its Variations", 1986) over interned lines, after the common head and
// tail are set aside. Its cost grows with the number of edits D, so D is capped: past the cap the
// middle is shown as removed then added, which is still a correct diff, only not the shortest.

export interface DiffOp {
  op: "same" | "add" | "remove";
  text: string;
  /** 1-based line numbers on each side; null on the side the line is not on. */
  from_line: number | null;
  to_line: number | null;
}

export interface Hunk {
  lines: DiffOp[];
}

/** Splits text into lines; a final newline ends the last line rather than starting an empty one. */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split(/\r\n|\n|\r/);
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** Every line of both sides, in order, each marked same, add or remove. */
export function diffLines(from: string[], to: string[], maxEdits = 1000): DiffOp[] {
  let head = 0;
  while (head < from.length && head < to.length && from[head] === to[head]) head++;
  let tail = 0;
  while (tail < from.length - head && tail < to.length - head && from[from.length - 1 - tail] === to[to.length - 1 - tail]) tail++;

  const ops: DiffOp[] = [];
  for (let i = 0; i < head; i++) ops.push({ op: "same", text: from[i]!, from_line: i + 1, to_line: i + 1 });
  const a = from.slice(head, from.length - tail);
  const b = to.slice(head, to.length - tail);
  for (const step of middle(a, b, maxEdits)) {
    if (step.op === "same") ops.push({ op: "same", text: a[step.x]!, from_line: head + step.x + 1, to_line: head + step.y + 1 });
    else if (step.op === "remove") ops.push({ op: "remove", text: a[step.x]!, from_line: head + step.x + 1, to_line: null });
    else ops.push({ op: "add", text: b[step.y]!, from_line: null, to_line: head + step.y + 1 });
  }
  for (let i = tail; i > 0; i--) {
    const f = from.length - i;
    const t = to.length - i;
    ops.push({ op: "same", text: from[f]!, from_line: f + 1, to_line: t + 1 });
  }
  return ops;
}

interface Step {
  op: "same" | "add" | "remove";
  x: number;
  y: number;
}

function middle(a: string[], b: string[], maxEdits: number): Step[] {
  const n = a.length;
  const m = b.length;
  if (n > 0 && m > 0) {
    const found = shortestEdit(intern(a, b), n, m, maxEdits);
    if (found) return found;
  }
  // Nothing to align, or too many edits to align within the cap.
  const steps: Step[] = [];
  for (let x = 0; x < n; x++) steps.push({ op: "remove", x, y: 0 });
  for (let y = 0; y < m; y++) steps.push({ op: "add", x: n, y });
  return steps;
}

/** Both sides as numbers, equal lines the same number, so the inner loop compares integers. */
function intern(a: string[], b: string[]): { a: Int32Array; b: Int32Array } {
  const ids = new Map<string, number>();
  const idOf = (line: string) => {
    let id = ids.get(line);
    if (id === undefined) ids.set(line, (id = ids.size));
    return id;
  };
  return { a: Int32Array.from(a, idOf), b: Int32Array.from(b, idOf) };
}

/** Myers' greedy forward search, keeping each round's furthest points to walk back; null past maxEdits. */
function shortestEdit(seq: { a: Int32Array; b: Int32Array }, n: number, m: number, maxEdits: number): Step[] | null {
  const cap = Math.min(n + m, maxEdits);
  const offset = cap + 1;
  const v = new Int32Array(2 * cap + 3);
  // trace[d] holds v[k] for k in -d..d as it stood before round d (only those are read back).
  const trace: Int32Array[] = [];
  for (let d = 0; d <= cap; d++) {
    trace.push(v.slice(offset - d, offset + d + 1));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && seq.a[x] === seq.b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return walkBack(trace, n, m);
    }
  }
  return null;
}

function walkBack(trace: Int32Array[], n: number, m: number): Step[] {
  const steps: Step[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    const row = trace[d]!;
    const at = (k: number) => row[k + d]!;
    const k = x - y;
    const previousK = d === 0 ? 0 : k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const previousX = d === 0 ? 0 : at(previousK);
    const previousY = previousX - previousK;
    while (x > previousX && y > previousY) {
      x--;
      y--;
      steps.push({ op: "same", x, y });
    }
    if (d > 0) {
      if (x === previousX) steps.push({ op: "add", x: previousX, y: previousY });
      else steps.push({ op: "remove", x: previousX, y: previousY });
    }
    x = previousX;
    y = previousY;
  }
  return steps.reverse();
}

/**
 * The changes with `context` unchanged lines around each, merged where they touch, up to
 * `maxLines` lines in all; `truncated` says the output stopped there.
 */
export function hunksOf(ops: DiffOp[], context: number, maxLines: number): { hunks: Hunk[]; truncated: boolean } {
  const changed = ops.map((o) => o.op !== "same");
  const keep = new Uint8Array(ops.length);
  ops.forEach((_o, i) => {
    if (!changed[i]) return;
    for (let j = Math.max(0, i - context); j <= Math.min(ops.length - 1, i + context); j++) keep[j] = 1;
  });
  const hunks: Hunk[] = [];
  let current: Hunk | null = null;
  let count = 0;
  for (let i = 0; i < ops.length; i++) {
    if (!keep[i]) {
      current = null;
      continue;
    }
    if (count >= maxLines) return { hunks, truncated: true };
    if (!current) hunks.push((current = { lines: [] }));
    current.lines.push(ops[i]!);
    count++;
  }
  return { hunks, truncated: false };
}
