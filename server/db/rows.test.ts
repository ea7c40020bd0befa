// The array literal that carries many digests or integers as one parameter: only values that need
// no quoting go in, so nothing in a value can change the array's shape.
import { describe, expect, it } from "vitest";
import { unquotedArray } from "./rows";

describe("unquotedArray", () => {
  it("joins digests and integers into one literal", () => {
    expect(unquotedArray(["ab12", "cd34"])).toBe("{ab12,cd34}");
    expect(unquotedArray([3, 17, 255])).toBe("{3,17,255}");
    expect(unquotedArray([])).toBe("{}");
  });

  it("refuses a value that would need quoting", () => {
    for (const value of ["a,b", 'a"b', "a b", "{a}", "", "NULL\\", "null"]) expect(() => unquotedArray(["ok", value])).toThrow(/needs quoting/);
  });
});
