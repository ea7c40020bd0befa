import { describe, expect, it } from "vitest";
import { parseRequestPath } from "./paths";

describe("parseRequestPath", () => {
  it.each([
    ["/", { ok: true, path: "", directory: true }],
    ["/index.html", { ok: true, path: "index.html", directory: false }],
    ["/css/site.css?v=3", { ok: true, path: "css/site.css", directory: false }],
    ["/docs/", { ok: true, path: "docs", directory: true }],
    ["//css//site.css", { ok: true, path: "css/site.css", directory: false }],
    ["/caf%C3%A9.html", { ok: true, path: "café.html", directory: false }],
    ["/cafe%CC%81.html", { ok: true, path: "café.html", directory: false }],
    ["/a%20b.html#top", { ok: true, path: "a b.html", directory: false }],
    ["/%252e%252e/x", { ok: true, path: "%2e%2e/x", directory: false }],
  ])("%s is served as %j", (target, expected) => {
    expect(parseRequestPath(target)).toEqual(expected);
  });

  it.each([
    "/../etc/passwd",
    "/a/../../etc/passwd",
    "/%2e%2e/etc/passwd",
    "/%2E%2E/%2E%2E/etc/passwd",
    "/.%2e/x",
    "/a/%2e/b",
    "/a%2f..%2f..%2fetc",
    "/..%5c..%5cwindows",
    "/a\\..\\b",
    "/file%00.html",
    "/bad%zz",
    "/%c0%ae%c0%ae/x",
    "/line%0abreak",
    "relative/path",
    "http://evil.example/x",
  ])("%s is refused", (target) => {
    expect(parseRequestPath(target)).toEqual({ ok: false });
  });
});
