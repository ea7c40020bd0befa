import { describe, expect, it } from "vitest";
import { parseSettingsTab } from "./tabs";

describe("parseSettingsTab", () => {
  it("keeps a known tab and falls back to Profile", () => {
    expect(parseSettingsTab("security")).toBe("security");
    expect(parseSettingsTab("notifications")).toBe("notifications");
    expect(parseSettingsTab(null)).toBe("profile");
    expect(parseSettingsTab("billing")).toBe("profile");
  });
});
