import { describe, expect, it } from "vitest";
import { nextSearch, parseTab } from "./tabs";

describe("parseTab", () => {
  it("reads the tabs and falls back to Files", () => {
    expect(parseTab("deployments")).toBe("deployments");
    expect(parseTab("sharing")).toBe("sharing");
    expect(parseTab("settings")).toBe("settings");
    expect(parseTab(null)).toBe("files");
    expect(parseTab("nope")).toBe("files");
  });
});

describe("nextSearch", () => {
  it("leaves the default tab and the root folder out of the address", () => {
    expect(
      nextSearch(new URLSearchParams("tab=settings"), {
        tab: "files",
      }).toString(),
    ).toBe("");
    expect(nextSearch(new URLSearchParams("path=a"), { path: null }).toString()).toBe("");
  });

  it("sets the tab and keeps the folder", () => {
    expect(
      nextSearch(new URLSearchParams("path=a%2Fb"), {
        tab: "deployments",
      }).toString(),
    ).toBe("path=a%2Fb&tab=deployments");
  });

  it("normalises the folder path", () => {
    expect(nextSearch(new URLSearchParams(), { path: "/a//b/" }).get("path")).toBe("a/b");
  });
});
