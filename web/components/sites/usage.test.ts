import { describe, expect, it } from "vitest";
import { usageBarWidth, usageLabel, usagePercent } from "./usage";

const MB = 1024 * 1024;

describe("storage usage", () => {
  it.each([
    [0, 500 * MB, 0, "0%", 0],
    [40 * MB, 500 * MB, 8, "8%", 8],
    [1024, 500 * MB, 0, "<1%", 1],
    [600 * MB, 500 * MB, 100, "100%", 100],
    [10, 0, 0, "0%", 0],
  ])("%d of %d", (used, quota, percent, label, width) => {
    expect(usagePercent(used, quota)).toBe(percent);
    expect(usageLabel(used, quota)).toBe(label);
    expect(usageBarWidth(used, quota)).toBe(width);
  });
});
