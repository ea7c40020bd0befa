import { describe, expect, it } from "vitest";
import { fileIconKind, fileTypeLabel, formatBytes, formatCount, timeAgo } from "./format";
import { daysUntilPurge } from "./sites";

describe("formatCount", () => {
  it.each([
    [0, "0"],
    [7, "7"],
    [999, "999"],
    [1000, "1,000"],
    [12345, "12,345"],
    [100000, "100,000"],
    [1234567, "1,234,567"],
    [-1000, "-1,000"],
    [-999, "-999"],
    [Number.MAX_SAFE_INTEGER, "9,007,199,254,740,991"],
  ])("%d is %s", (n, text) => {
    expect(formatCount(n)).toBe(text);
  });

  it("writes every whole number as en-US does", () => {
    for (let n = -5000; n <= 5_000_000; n += 997) expect(formatCount(n)).toBe(n.toLocaleString("en-US"));
  });

  it("leaves what is not a safe integer to String()", () => {
    expect(formatCount(1.5)).toBe("1.5");
    expect(formatCount(Number.NaN)).toBe("NaN");
    expect(formatCount(1e21)).toBe("1e+21");
  });
});

describe("formatBytes", () => {
  it.each([
    [0, "0 Bytes"],
    [1, "1 Bytes"],
    [1023, "1023 Bytes"],
    [1024, "1 KB"],
    [1536, "1.5 KB"],
    [1234567, "1.18 MB"],
    [50 * 1024 * 1024, "50 MB"],
    [5 * 1024 ** 3, "5 GB"],
    [3 * 1024 ** 4, "3 TB"],
    [5000 * 1024 ** 4, "5000 TB"],
  ])("%d is %s", (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });
});

describe("file types and icons", () => {
  it.each([
    ["index.html", false, "html", "code"],
    ["Report.PDF", false, "pdf", "pdf"],
    ["site.tar.gz", false, "gz", "archive"],
    ["logo.svg", false, "svg", "image"],
    ["README", false, "Unknown", "file"],
    [".env", false, "Unknown", "file"],
    ["css", true, "Folder", "folder"],
  ])("%s", (name, isFolder, label, icon) => {
    expect(fileTypeLabel(name, isFolder)).toBe(label);
    expect(fileIconKind(name, isFolder)).toBe(icon);
  });
});

describe("timeAgo", () => {
  const now = new Date("2026-11-23T12:00:00Z");
  it.each([
    [10, "just now"],
    [90, "2 minutes ago"],
    [60 * 60, "1 hour ago"],
    [3 * 24 * 60 * 60, "3 days ago"],
  ])("%d seconds ago", (seconds, text) => {
    expect(timeAgo(new Date(now.getTime() - seconds * 1000), now)).toBe(text);
  });
});

describe("daysUntilPurge", () => {
  const deletedAt = new Date("2026-11-01T00:00:00Z");
  it.each([
    ["2026-11-01T00:00:00Z", 14],
    ["2026-11-01T00:00:01Z", 14],
    ["2026-11-14T00:00:01Z", 1],
    ["2026-11-15T00:00:00Z", 0],
    ["2026-12-30T00:00:00Z", 0],
  ])("at %s is %d", (now, days) => {
    expect(daysUntilPurge(deletedAt, new Date(now))).toBe(days);
  });
});
