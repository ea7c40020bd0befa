import { describe, expect, it } from "vitest";
import { memoryAfterCollection } from "./memoryReport";

describe("the memory report", () => {
  it("measures after a full collection, so garbage is not counted", () => {
    const start = memoryAfterCollection();
    let garbage: string[] | undefined = Array.from({ length: 200_000 }, (_, i) => `${i}`.padStart(200, "x"));
    const held = memoryAfterCollection();
    expect(held.heapUsed - start.heapUsed).toBeGreaterThan(40e6);
    expect(garbage.length).toBe(200_000);
    garbage = undefined;
    const dropped = memoryAfterCollection();
    expect(held.heapUsed - dropped.heapUsed).toBeGreaterThan(40e6);
    expect(dropped.heapLimit).toBeGreaterThan(dropped.heapTotal);
  });

  it("adds the edge's own accounting when asked", () => {
    expect(memoryAfterCollection(() => ({ routes: 1 })).edge).toEqual({ routes: 1 });
    expect(memoryAfterCollection()).not.toHaveProperty("edge");
  });
});
