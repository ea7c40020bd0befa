import { describe, expect, it } from "vitest";
import type { DeploymentResponse } from "../../../../common/sites";
import { breadcrumbsFromPath, childPath, normalizeFolderPath, upsertDeployment } from "./paths";

describe("normalizeFolderPath", () => {
  it.each([
    [null, null],
    ["", null],
    ["/", null],
    ["//", null],
    ["a", "a"],
    ["a/b", "a/b"],
    ["/a//b/", "a/b"],
    ["a/ /b", "a/b"],
  ])("%j → %j", (raw, expected) => {
    expect(normalizeFolderPath(raw)).toBe(expected);
  });
});

describe("breadcrumbsFromPath", () => {
  it("is only Home at the root", () => {
    expect(breadcrumbsFromPath(null)).toEqual([{ label: "Home", path: null }]);
  });

  it("gives one crumb per folder, each opening the path up to itself", () => {
    expect(breadcrumbsFromPath("docs/guides/v2")).toEqual([
      { label: "Home", path: null },
      { label: "docs", path: "docs" },
      { label: "guides", path: "docs/guides" },
      { label: "v2", path: "docs/guides/v2" },
    ]);
  });

  it("ignores stray slashes", () => {
    expect(breadcrumbsFromPath("/a//b/").map((crumb) => crumb.path)).toEqual([null, "a", "a/b"]);
  });
});

describe("childPath", () => {
  it("joins with a slash below the root", () => {
    expect(childPath(null, "css")).toBe("css");
    expect(childPath("a/b", "c")).toBe("a/b/c");
  });
});

function deployment(version: number, overrides: Partial<DeploymentResponse> = {}): DeploymentResponse {
  return {
    id: `d${version}`,
    site_id: "s1",
    version,
    status: "success",
    deployment_url: null,
    created_at: "2025-01-01T00:00:00Z",
    error: null,
    file_count: 1,
    total_size: 10,
    note: null,
    is_live: false,
    draft: false,
    check: null,
    ...overrides,
  };
}

describe("upsertDeployment", () => {
  it("adds a new deployment first (newest version first)", () => {
    const list = [deployment(2), deployment(1)];
    expect(upsertDeployment(list, deployment(3)).map((d) => d.version)).toEqual([3, 2, 1]);
  });

  it("replaces the same id in place", () => {
    const list = [deployment(2, { status: "in_progress" }), deployment(1)];
    const next = upsertDeployment(list, deployment(2, { status: "failed", error: "boom" }));
    expect(next).toHaveLength(2);
    expect(next[0]).toMatchObject({
      version: 2,
      status: "failed",
      error: "boom",
    });
  });

  it("keeps a single live deployment", () => {
    const list = [deployment(2, { is_live: true }), deployment(1)];
    const next = upsertDeployment(list, deployment(1, { is_live: true }));
    expect(next.filter((d) => d.is_live).map((d) => d.version)).toEqual([1]);
  });

  it("does not mutate the cached list", () => {
    const list = [deployment(1)];
    upsertDeployment(list, deployment(2));
    expect(list).toHaveLength(1);
  });
});
