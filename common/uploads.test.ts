import { describe, expect, it } from "vitest";
import { UPLOAD_TEXT, contentTypeFor, extensionOf, isAllowedUpload, isZipUpload, validateSitePath, type SitePathResult } from "./uploads";

describe("isAllowedUpload", () => {
  it.each([
    ["index.html", "", true],
    ["INDEX.HTM", "", true],
    ["style.css", "", true],
    ["app.js", "application/octet-stream", true],
    ["photo.JPG", "", true],
    ["photo.jpeg", "", true],
    ["logo.png", "", true],
    ["anim.gif", "", true],
    ["report.pdf", "", true],
    ["site.zip", "", true],
    // Either one is enough: a browser may send no MIME type, and a name may have no extension.
    ["download", "application/pdf", true],
    ["archive.bin", "application/x-zip-compressed", true],
    ["page", "text/html; charset=utf-8", true],
    ["script", "APPLICATION/JAVASCRIPT", true],
    ["movie.mp4", "video/mp4", false],
    ["notes.txt", "text/plain", false],
    ["image.svg", "image/svg+xml", false],
    ["noextension", "", false],
    ["html", "", false],
    [".html", "", false],
    ["index.html.exe", "application/x-msdownload", false],
    ["index.exe", null, false],
  ])("%s (%s) → %s", (name, type, expected) => {
    expect(isAllowedUpload(name, type)).toBe(expected);
  });

  it("tells zips apart", () => {
    expect(isZipUpload("site.ZIP", "")).toBe(true);
    expect(isZipUpload("upload", "application/zip")).toBe(true);
    expect(isZipUpload("index.html", "text/html")).toBe(false);
  });

  it("words the refusals exactly: 'Unsupported file type', 'File too large' and their descriptions", () => {
    expect(UPLOAD_TEXT.unsupportedTitle).toBe("Unsupported file type");
    expect(UPLOAD_TEXT.unsupportedDescription).toBe(
      "Please upload one of the following types: .html, .htm, .css, .js, .jpg, .jpeg, .png, .gif, .pdf, .zip",
    );
    expect(UPLOAD_TEXT.tooLargeTitle).toBe("File too large");
    expect(UPLOAD_TEXT.tooLargeDescription()).toBe("Maximum file size is 50MB");
    expect(UPLOAD_TEXT.tooLargeDescription(250 * 1024 * 1024)).toBe("Maximum file size is 250MB");
  });
});

describe("extensionOf", () => {
  it.each([
    ["a.HTML", "html"],
    ["dir.v2/file", ""],
    [".htaccess", ""],
    ["a/b/c.tar.gz", "gz"],
    ["trailing.", ""],
  ])("%s → %s", (name, expected) => {
    expect(extensionOf(name)).toBe(expected);
  });
});

describe("contentTypeFor", () => {
  it.each([
    ["index.html", "text/html; charset=utf-8"],
    ["a/b/PAGE.HTM", "text/html; charset=utf-8"],
    ["site.css", "text/css; charset=utf-8"],
    ["app.js", "text/javascript; charset=utf-8"],
    ["mod.mjs", "text/javascript; charset=utf-8"],
    ["data.json", "application/json; charset=utf-8"],
    ["app.js.map", "application/json; charset=utf-8"],
    ["robots.txt", "text/plain; charset=utf-8"],
    ["feed.xml", "application/xml; charset=utf-8"],
    ["icon.svg", "image/svg+xml; charset=utf-8"],
    ["table.csv", "text/csv; charset=utf-8"],
    ["README.md", "text/markdown; charset=utf-8"],
    ["a.png", "image/png"],
    ["a.jpg", "image/jpeg"],
    ["a.jpeg", "image/jpeg"],
    ["a.gif", "image/gif"],
    ["a.webp", "image/webp"],
    ["a.avif", "image/avif"],
    ["favicon.ico", "image/x-icon"],
    ["doc.pdf", "application/pdf"],
    ["app.wasm", "application/wasm"],
    ["f.woff", "font/woff"],
    ["f.woff2", "font/woff2"],
    ["f.ttf", "font/ttf"],
    ["f.otf", "font/otf"],
    ["v.mp4", "video/mp4"],
    ["v.webm", "video/webm"],
    ["s.mp3", "audio/mpeg"],
    ["binary", "application/octet-stream"],
    ["setup.exe", "application/octet-stream"],
    [".html", "application/octet-stream"],
  ])("%s → %s", (path, expected) => {
    expect(contentTypeFor(path)).toBe(expected);
  });
});

const ok = (path: string): SitePathResult => ({ ok: true, path });
const bad = (pattern: RegExp): RegExp => pattern;

describe("validateSitePath", () => {
  // One row per case, Hono serve-static style. Percent escapes are literal: nothing decodes a
  // stored name, so "%2e%2e" and "%00" are ordinary characters, not ".." or NUL.
  it.each([
    ["index.html", ok("index.html")],
    ["css/site.css", ok("css/site.css")],
    ["a/b/c/d.png", ok("a/b/c/d.png")],
    ["my folder/my file.html", ok("my folder/my file.html")],
    ["...", ok("...")],
    ["..foo", ok("..foo")],
    [".well-known/security.txt", ok(".well-known/security.txt")],
    ["%2e%2e", ok("%2e%2e")],
    ["%2e%2e/%2e%2e/etc/passwd", ok("%2e%2e/%2e%2e/etc/passwd")],
    ["a%00b.html", ok("a%00b.html")],
    ["100%.html", ok("100%.html")],
    ["日本語/ページ.html", ok("日本語/ページ.html")],
    ["C/x", ok("C/x")],
    ["ab:c.html", ok("ab:c.html")],
    ["a:b.html", bad(/drive letter/)],
    // NFC: the decomposed "é" (e + U+0301) becomes the composed one.
    ["cafe\u0301.html", ok("caf\u00e9.html")],
    ["caf\u00e9.html", ok("caf\u00e9.html")],
    ["", bad(/empty/)],
    ["..", bad(/"\.\."/)],
    [".", bad(/"\."/)],
    ["../x", bad(/"\.\."/)],
    ["a/../../x", bad(/"\.\."/)],
    ["a/..", bad(/"\.\."/)],
    ["./index.html", bad(/"\."/)],
    ["a/./b", bad(/"\."/)],
    ["/etc/passwd", bad(/relative/)],
    ["/", bad(/relative/)],
    ["//server/share", bad(/relative/)],
    ["a//b", bad(/empty name/)],
    ["a/", bad(/empty name/)],
    ["C:\\evil", bad(/backslash/)],
    ["C:/evil", bad(/drive letter/)],
    ["c:evil", bad(/drive letter/)],
    ["a\\b.html", bad(/backslash/)],
    ["..\\..\\x", bad(/backslash/)],
    ["a\u0000b.html", bad(/control character/)],
    ["a\nb", bad(/control character/)],
    ["a\tb", bad(/control character/)],
    ["a\u001fb", bad(/control character/)],
    ["a\u007fb", bad(/control character/)],
    ["a\u0085b", bad(/control character/)],
    ["a\ud800b", bad(/control character/)],
    [" ", bad(/spaces/)],
    ["a/ /b", bad(/spaces/)],
    ["x".repeat(255), ok("x".repeat(255))],
    ["x".repeat(256), bad(/255 bytes/)],
    ["é".repeat(128), bad(/255 bytes/)],
    [Array.from({ length: 5 }, () => "y".repeat(200)).join("/"), ok(Array.from({ length: 5 }, () => "y".repeat(200)).join("/"))],
    [Array.from({ length: 6 }, () => "y".repeat(200)).join("/"), bad(/1024 bytes/)],
  ])("%j", (input, expected) => {
    const result = validateSitePath(input);
    if (expected instanceof RegExp) {
      expect(result.ok).toBe(false);
      expect(result.ok ? "" : result.error).toMatch(expected);
    } else {
      expect(result).toEqual(expected);
    }
  });
});
