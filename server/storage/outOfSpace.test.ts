import { describe, expect, it } from "vitest";
import { isOutOfSpace } from "./outOfSpace";

const errno = (code: string) => Object.assign(new Error(`${code}: write failed`), { code });

describe("isOutOfSpace", () => {
  it.each([
    ["ENOSPC", errno("ENOSPC"), true],
    ["EDQUOT", errno("EDQUOT"), true],
    ["wrapped ENOSPC", new Error("upload failed", { cause: errno("ENOSPC") }), true],
    ["EACCES", errno("EACCES"), false],
    ["a plain error", new Error("no space left on device"), false],
    ["not an error", { code: "ENOSPC" }, false],
  ])("%s", (_name, error, expected) => {
    expect(isOutOfSpace(error)).toBe(expected);
  });
});
