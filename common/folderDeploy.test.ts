import { describe, expect, it } from "vitest";
import { BATCH_FILES, isLeftOut, sendWithPublish, TAR_BLOCK, tarHeader, tarPaddingSize, WITH_PUBLISH_BYTES } from "./folderDeploy";

describe("isLeftOut", () => {
  it.each([
    [".git", true, true],
    [".env", false, true],
    [".DS_Store", true, true],
    [".well-known", true, false],
    [".well-known", false, true],
    [".Well-Known", true, true],
    ["index.html", true, false],
    ["_redirects", true, false],
    ["a.b", false, false],
    ["...", false, true],
  ])("%s (at the top: %s) → left out: %s", (name, atTop, expected) => {
    expect(isLeftOut(name, atTop)).toBe(expected);
  });
});

describe("tarHeader", () => {
  it("writes a ustar header whose checksum is the sum of its bytes with the field as spaces", () => {
    const header = tarHeader("a".repeat(64), 1234);
    expect(header.length).toBe(TAR_BLOCK);
    const text = new TextDecoder().decode(header);
    expect(text.slice(124, 135)).toBe((1234).toString(8).padStart(11, "0"));
    expect(text.slice(257, 262)).toBe("ustar");
    const stored = parseInt(text.slice(148, 154), 8);
    const copy = header.slice();
    copy.fill(0x20, 148, 156);
    expect(stored).toBe(copy.reduce((sum, byte) => sum + byte, 0));
  });

  it("refuses a name that does not fit, and pads data to whole blocks", () => {
    expect(() => tarHeader("x".repeat(101), 1)).toThrow(/does not fit/);
    expect([0, 1, 511, 512, 513].map(tarPaddingSize)).toEqual([0, 511, 1, 0, 511]);
  });
});

describe("sendWithPublish", () => {
  const sized = (...sizes: number[]) => sizes.map((size) => ({ size }));
  it("sends a small change with the publish, and more ahead of it", () => {
    expect(sendWithPublish(sized(2048))).toBe(true);
    expect(sendWithPublish(sized(WITH_PUBLISH_BYTES))).toBe(true);
    expect(sendWithPublish(sized(WITH_PUBLISH_BYTES / 2, WITH_PUBLISH_BYTES / 2))).toBe(true);
    expect(sendWithPublish(sized(WITH_PUBLISH_BYTES / 2, WITH_PUBLISH_BYTES / 2 + 1))).toBe(false);
    expect(sendWithPublish(sized(...Array<number>(BATCH_FILES).fill(1)))).toBe(true);
    expect(sendWithPublish(sized(...Array<number>(BATCH_FILES + 1).fill(1)))).toBe(false);
  });

  it("has nothing to send with nothing missing", () => {
    expect(sendWithPublish([])).toBe(false);
  });
});
