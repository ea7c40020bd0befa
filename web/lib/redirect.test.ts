import { describe, expect, it } from "vitest";
import { loginPathFor, restoreSavedRedirect, safeReturnPath, SAVED_REDIRECT_KEY } from "./redirect";

describe("return targets", () => {
  it.each([
    ["/dashboard/sites/1?tab=files", "/dashboard/sites/1?tab=files"],
    ["//evil.example/x", undefined],
    ["/\\evil.example", undefined],
    ["https://evil.example", undefined],
    ["javascript:alert(1)", undefined],
    ["/ok\nSet-Cookie", undefined],
    ["", undefined],
    [null, undefined],
  ])("safeReturnPath(%j) is %j", (input, expected) => {
    expect(safeReturnPath(input)).toBe(expected);
  });

  it("keeps the target in the login URL", () => {
    expect(loginPathFor("/dashboard/settings?x=1")).toBe("/auth/login?redirect=%2Fdashboard%2Fsettings%3Fx%3D1");
    expect(loginPathFor("/dashboard")).toBe("/auth/login");
  });
});

class MemoryStorage implements Storage {
  private data = new Map<string, string>();
  get length() {
    return this.data.size;
  }
  clear() {
    this.data.clear();
  }
  getItem(key: string) {
    return this.data.get(key) ?? null;
  }
  key(index: number) {
    return [...this.data.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.data.delete(key);
  }
  setItem(key: string, value: string) {
    this.data.set(key, value);
  }
}

describe("restoreSavedRedirect", () => {
  const fakeHistory = () => {
    const calls: string[] = [];
    return { calls, history: { replaceState: (_s: unknown, _t: string, url: string) => calls.push(url) } as unknown as History };
  };

  it("removes the saved path and puts it in the address bar", () => {
    const storage = new MemoryStorage();
    storage.setItem(SAVED_REDIRECT_KEY, "/dashboard/settings");
    const { calls, history } = fakeHistory();
    restoreSavedRedirect(storage, history);
    expect(calls).toEqual(["/dashboard/settings"]);
    expect(storage.getItem(SAVED_REDIRECT_KEY)).toBeNull();
  });

  it("drops a saved path that leaves the site", () => {
    const storage = new MemoryStorage();
    storage.setItem(SAVED_REDIRECT_KEY, "//evil.example");
    const { calls, history } = fakeHistory();
    restoreSavedRedirect(storage, history);
    expect(calls).toEqual([]);
    expect(storage.getItem(SAVED_REDIRECT_KEY)).toBeNull();
  });

  it("does nothing without a saved path", () => {
    const { calls, history } = fakeHistory();
    restoreSavedRedirect(new MemoryStorage(), history);
    expect(calls).toEqual([]);
  });
});
