import { describe, expect, it } from "vitest";
import type { SiteResponse } from "../../../common/sites";
import { displayUrl, filterSites, formatStatusParam, hostOf, listStatusOf, matchesQuery, parseStatusParam, type ListStatus } from "./siteList";

function site(overrides: Partial<SiteResponse>): SiteResponse {
  return {
    id: "s1",
    name: "Portfolio",
    description: null,
    status: "active",
    is_deleted: false,
    deleted_at: null,
    subdomain: "abcde",
    domain: null,
    created_at: "2026-01-01T00:00:00.000Z",
    url: "http://abcde.localhost:8080/",
    live_deployment_id: null,
    live_version: null,
    file_count: 1,
    size: 10,
    expires_at: null,
    publish_at: null,
    password_protected: false,
    visibility: "public",
    ...overrides,
  };
}

describe("listStatusOf", () => {
  it.each<[Partial<SiteResponse>, ListStatus]>([
    [{ status: "active" }, "active"],
    [{ status: "pending" }, "not_deployed"],
    [{ status: "deleted", is_deleted: true }, "marked_for_deletion"],
    [{ status: "active", is_deleted: true }, "marked_for_deletion"],
    [{ status: "deleted", is_deleted: false }, "marked_for_deletion"],
  ])("%j → %s", (fields, expected) => {
    expect(listStatusOf(site(fields))).toBe(expected);
  });
});

describe("hostOf and displayUrl", () => {
  it("drops the protocol, the subdomain and the trailing slash", () => {
    expect(hostOf("http://abcde.localhost:8080/", "abcde")).toBe("localhost:8080");
    expect(hostOf("https://abcde.berth.page/", "abcde")).toBe("berth.page");
    expect(hostOf("https://abcde.berth.page", "abcde")).toBe("berth.page");
    expect(displayUrl(site({ subdomain: "qwert", url: "https://qwert.sites.example.com/" }))).toBe("qwert.sites.example.com");
  });
});

describe("matchesQuery", () => {
  const s = site({
    name: "Annual Report",
    subdomain: "xkcdq",
    domain: "report.example.org",
  });
  it.each([
    ["", true],
    ["   ", true],
    ["annual", true],
    ["REPORT", true],
    ["xkc", true],
    ["example.org", true],
    ["nothing", false],
  ])("%j → %s", (query, expected) => {
    expect(matchesQuery(s, query)).toBe(expected);
  });
  it("works without a custom domain", () => {
    expect(matchesQuery(site({ domain: null }), "example")).toBe(false);
  });
});

describe("filterSites", () => {
  const sites = [
    site({
      id: "old",
      name: "Old",
      created_at: "2025-01-01T00:00:00Z",
      status: "pending",
    }),
    site({ id: "new", name: "New", created_at: "2026-03-01T00:00:00Z" }),
    site({
      id: "gone",
      name: "Gone",
      created_at: "2025-06-01T00:00:00Z",
      status: "deleted",
      is_deleted: true,
    }),
  ];
  it("sorts newest first with no filter", () => {
    expect(filterSites(sites, "", new Set()).map((s) => s.id)).toEqual(["new", "gone", "old"]);
  });
  it("keeps the checked statuses only", () => {
    expect(filterSites(sites, "", new Set<ListStatus>(["active", "not_deployed"])).map((s) => s.id)).toEqual(["new", "old"]);
    expect(filterSites(sites, "", new Set<ListStatus>(["marked_for_deletion"])).map((s) => s.id)).toEqual(["gone"]);
  });
  it("combines search and filter", () => {
    expect(filterSites(sites, "o", new Set<ListStatus>(["not_deployed"])).map((s) => s.id)).toEqual(["old"]);
  });
});

describe("status param", () => {
  it("round-trips in a fixed order and ignores unknown values", () => {
    const parsed = parseStatusParam("marked_for_deletion, bogus,active");
    expect([...parsed].sort()).toEqual(["active", "marked_for_deletion"]);
    expect(formatStatusParam(parsed)).toBe("active,marked_for_deletion");
    expect(parseStatusParam(null).size).toBe(0);
  });
});
