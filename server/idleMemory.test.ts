import { afterEach, describe, expect, it } from "vitest";
import { keepMemoryLean, type NativeMalloc } from "./idleMemory";
import { compactHeap, memoryAfterCollection } from "./memoryReport";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function busyFor(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

describe("keeping memory lean at rest", () => {
  let stop = () => {};
  afterEach(() => stop());

  it("compacts the heap once at rest, and again only after the heap has grown", async () => {
    let compactions = 0;
    stop = keepMemoryLean({ native: undefined, compact: () => compactions++, everyMs: 100 });
    await pause(450);
    expect(compactions).toBe(1);
    // Held, so the heap stays larger than it was at the last compaction.
    const held = Array.from({ length: 400_000 }, (_, i) => `${i}`.padStart(40, "y"));
    await pause(500);
    expect(compactions).toBe(2);
    expect(held.length).toBe(400_000);
  });

  it("does not compact while the thread is busy", async () => {
    let compactions = 0;
    stop = keepMemoryLean({ native: undefined, compact: () => compactions++, everyMs: 100 });
    // Busy for most of every window: a timer between two busy stretches still finds the window busy.
    for (let i = 0; i < 8; i++) {
      busyFor(90);
      await pause(5);
    }
    expect(compactions).toBe(0);
  });

  it("tunes the C allocator once and trims it at every check", async () => {
    const calls: string[] = [];
    const native: NativeMalloc = {
      tuneMalloc: () => (calls.push("tune"), true),
      trimMalloc: () => (calls.push("trim"), true),
    };
    stop = keepMemoryLean({ native, compact: () => {}, everyMs: 50 });
    await pause(180);
    stop();
    const afterStop = calls.length;
    await pause(120);
    expect(calls[0]).toBe("tune");
    expect(calls.filter((c) => c === "trim").length).toBeGreaterThanOrEqual(2);
    expect(calls.length).toBe(afterStop);
  });

  it("leaves the allocator alone where it cannot be tuned (not glibc)", async () => {
    let trims = 0;
    stop = keepMemoryLean({ native: { tuneMalloc: () => false, trimMalloc: () => (trims++, true) }, compact: () => {}, everyMs: 50 });
    await pause(180);
    expect(trims).toBe(0);
  });
});

// Node 20's V8 ignores the compacting flavor; from Node 22 on, the compaction must give pages back,
// or the server idles 40–60 MB higher without anyone noticing.
const nodeMajor = Number(process.versions.node.split(".")[0]);

describe.skipIf(nodeMajor < 22)("a compacting collection", () => {
  it("returns the pages an ordinary collection keeps", () => {
    // Survivors spread over many pages, so an ordinary collection leaves every page in use.
    let kept: unknown[] | undefined = [];
    for (let i = 0; i < 2_000_000; i++) {
      const o = { a: i, b: `x${i}` };
      if (i % 10 === 0) kept.push(o);
    }
    kept = undefined;
    const ordinary = memoryAfterCollection().heapTotal;
    compactHeap();
    const compacted = process.memoryUsage().heapTotal;
    expect(kept).toBeUndefined();
    expect(ordinary - compacted).toBeGreaterThan(8 * 2 ** 20);
  });
});
