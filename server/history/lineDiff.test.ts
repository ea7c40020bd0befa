import { describe, expect, it } from "vitest";
import { diffLines, hunksOf, splitLines, type DiffOp } from "./lineDiff";

const sides = (ops: DiffOp[]) => ({
  from: ops.filter((o) => o.op !== "add").map((o) => o.text),
  to: ops.filter((o) => o.op !== "remove").map((o) => o.text),
});

/** The length of a longest common subsequence, by dynamic programming: what a shortest diff keeps. */
function lcs(a: string[], b: string[]): number {
  const row = new Array<number>(b.length + 1).fill(0);
  for (const x of a) {
    let diagonal = 0;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = x === b[j - 1] ? diagonal + 1 : Math.max(row[j]!, row[j - 1]!);
      diagonal = above;
    }
  }
  return row[b.length]!;
}

function seeded(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
}

describe("diffLines", () => {
  it("marks the changed line between unchanged ones", () => {
    const ops = diffLines(["a", "b", "c"], ["a", "B", "c"]);
    expect(ops.map((o) => `${o.op}:${o.text}:${o.from_line}:${o.to_line}`)).toEqual(["same:a:1:1", "remove:b:2:null", "add:B:null:2", "same:c:3:3"]);
  });

  it("rebuilds both sides and keeps a longest common subsequence, on random texts", () => {
    const random = seeded(7);
    for (let round = 0; round < 300; round++) {
      const line = () => "abcde"[Math.floor(random() * 5)]!;
      const a = Array.from({ length: Math.floor(random() * 30) }, line);
      const b = Array.from({ length: Math.floor(random() * 30) }, line);
      const ops = diffLines(a, b);
      expect(sides(ops)).toEqual({ from: a, to: b });
      expect(ops.filter((o) => o.op === "same").length, `${a.join("")} → ${b.join("")}`).toBe(lcs(a, b));
    }
  });

  it("still gives a correct diff past the edit cap, without aligning the middle", () => {
    const a = Array.from({ length: 200 }, (_v, i) => `old ${i}`);
    const b = Array.from({ length: 200 }, (_v, i) => `new ${i}`);
    const ops = diffLines(["head", ...a, "tail"], ["head", ...b, "tail"], 10);
    expect(sides(ops)).toEqual({ from: ["head", ...a, "tail"], to: ["head", ...b, "tail"] });
    expect(ops.filter((o) => o.op === "same").map((o) => o.text)).toEqual(["head", "tail"]);
  });
});

describe("hunksOf", () => {
  it("keeps context around changes, merges hunks that touch and stops at the line cap", () => {
    const from = Array.from({ length: 40 }, (_v, i) => `line ${i}`);
    const to = [...from];
    to[5] = "changed 5";
    to[8] = "changed 8";
    to[30] = "changed 30";
    const { hunks, truncated } = hunksOf(diffLines(from, to), 3, 1000);
    expect(truncated).toBe(false);
    expect(hunks).toHaveLength(2);
    expect(hunks[0]!.lines[0]!.text).toBe("line 2");
    expect(hunks[1]!.lines.at(-1)!.text).toBe("line 33");
    expect(hunksOf(diffLines(from, to), 3, 5)).toMatchObject({ truncated: true });
  });
});

describe("splitLines", () => {
  it("ends the last line at a final newline and accepts CRLF", () => {
    expect(splitLines("a\r\nb\n")).toEqual(["a", "b"]);
    expect(splitLines("")).toEqual([]);
    expect(splitLines("a\n\nb")).toEqual(["a", "", "b"]);
  });
});
