import { describe, expect, it } from "vitest";
import { EdgeMemory, MIN_BUDGET_BYTES, SHARES, stringBytes } from "./budget";
import { ByteMap } from "./byteMap";

describe("the edge's memory budget", () => {
  it("splits the budget into parts whose caps, with the file bodies' floor, add up to it", () => {
    const memory = new EdgeMemory(16 * 1024 * 1024);
    const usage = memory.usage();
    const shares = Object.keys(SHARES) as Array<keyof typeof SHARES>;
    const others = shares.reduce((sum, name) => sum + usage[name].cap, 0);
    expect(others + memory.filesFloor).toBe(memory.limit);
    expect(usage.routes.cap).toBe(2 * 1024 * 1024);
    expect(usage.manifests.cap).toBe(4 * 1024 * 1024);
    // File bodies may use it all while the rest is empty.
    expect(usage.files.cap).toBe(memory.limit);
    expect(memory.filesFloor).toBeGreaterThan(memory.limit / 3);
    expect(usage.total).toEqual({ used: 0, cap: memory.limit });
  });

  it("counts every charge in its part and in the total, and tells the file cache when the total is over", () => {
    const memory = new EdgeMemory(1000);
    let evictions = 0;
    memory.onOverflow(() => {
      evictions++;
      // The file cache lets go of what it holds.
      memory.files.release(memory.files.used);
    });
    memory.files.charge(900);
    expect(evictions).toBe(0);
    memory.part("routes").charge(100);
    expect(evictions).toBe(0);
    memory.part("routes").charge(1);
    expect(evictions).toBe(1);
    expect(memory.used).toBe(101);
    memory.part("routes").release(101);
    expect(memory.usage().routes.used).toBe(0);
    expect(memory.used).toBe(0);
  });

  it("calls a part's own handler when it goes over its cap", () => {
    const memory = new EdgeMemory(MIN_BUDGET_BYTES);
    const routes = memory.part("routes");
    let calls = 0;
    routes.onOver = () => calls++;
    routes.charge(routes.cap);
    expect(calls).toBe(0);
    expect(routes.over).toBe(false);
    routes.charge(1);
    expect(calls).toBe(1);
    expect(routes.over).toBe(true);
  });

  it("prices a string at two bytes a character and a header", () => {
    expect(stringBytes("")).toBe(16);
    expect(stringBytes("x".repeat(100))).toBe(216);
  });
});

describe("ByteMap", () => {
  const sized = (cap: number) => {
    const memory = new EdgeMemory(1024 * 1024);
    const part = memory.part("sites");
    const removed: string[] = [];
    const map = new ByteMap<string, string>(part, (key, value) => key.length + value.length, { cap, onRemove: (key) => removed.push(key) });
    return { memory, part, map, removed };
  };

  it("keeps the newest entries within its cap, the oldest going first, and counts their bytes in its part", () => {
    const { part, map, removed } = sized(100);
    for (let i = 0; i < 10; i++) map.set(`k${i}`, "v".repeat(28));
    // 30 bytes each: three fit.
    expect([...map.keys()]).toEqual(["k7", "k8", "k9"]);
    expect(map.bytes).toBe(90);
    expect(part.used).toBe(90);
    expect(removed).toEqual(["k0", "k1", "k2", "k3", "k4", "k5", "k6"]);
    expect(map.get("k9")).toBe("v".repeat(28));
  });

  it("counts a replaced entry once, and releases what it deletes and clears", () => {
    const { part, map, removed } = sized(1000);
    map.set("a", "x".repeat(9));
    map.set("a", "x".repeat(19));
    expect(map.bytes).toBe(20);
    expect(part.used).toBe(20);
    expect(removed).toEqual(["a"]);
    map.set("b", "y");
    expect(map.delete("b")).toBe(true);
    expect(map.delete("b")).toBe(false);
    expect(part.used).toBe(20);
    map.clear();
    expect(map.size).toBe(0);
    expect(map.bytes).toBe(0);
    expect(part.used).toBe(0);
    expect(removed).toEqual(["a", "b", "a"]);
  });

  it("keeps nothing larger than its cap", () => {
    const { part, map } = sized(10);
    map.set("small", "x");
    map.set("big", "x".repeat(20));
    expect([...map.keys()]).toEqual(["small"]);
    expect(part.used).toBe(6);
  });

  it("drops its oldest entry on request, and keeps and counts nothing once closed", () => {
    const { part, map } = sized(1000);
    map.set("a", "1");
    map.set("b", "2");
    expect(map.dropOldest()).toBe(true);
    expect([...map.keys()]).toEqual(["b"]);
    map.close();
    map.set("c", "3");
    expect(map.size).toBe(0);
    expect(part.used).toBe(0);
    expect(map.dropOldest()).toBe(false);
  });

  it("lets its part's handler empty it in the middle of a set without losing count", () => {
    const memory = new EdgeMemory(1024 * 1024);
    const part = memory.part("routes");
    // Two hosts' maps in one part; past the part's cap both are dropped (resolver.ts trimHosts).
    const first = new ByteMap<string, number>(part, () => part.cap / 2 + 1);
    const second = new ByteMap<string, number>(part, () => part.cap / 2 + 1);
    part.onOver = () => {
      first.close();
      second.close();
    };
    first.set("a", 1);
    expect(part.used).toBe(part.cap / 2 + 1);
    second.set("b", 2);
    expect(first.size + second.size).toBe(0);
    expect(part.used).toBe(0);
    expect(memory.used).toBe(0);
  });
});
