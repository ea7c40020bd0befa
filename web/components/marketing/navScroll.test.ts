import { describe, expect, it } from "vitest";
import { isNavOpaque } from "./navScroll";

describe("isNavOpaque", () => {
  it.each([
    [0, false],
    [5, false],
    [10, false],
    [10.5, true],
    [11, true],
    [800, true],
  ])("scrollY %d → %s", (scrollY, expected) => {
    expect(isNavOpaque(scrollY)).toBe(expected);
  });
});
