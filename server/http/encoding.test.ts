import { describe, expect, it } from "vitest";
import { chooseEncoding, isCompressible, type Encoding } from "./encoding";

const BOTH = { br: true, gzip: true };

describe("chooseEncoding with br and gzip available", () => {
  it.each<[string | undefined, Encoding]>([
    // What browsers and tools send.
    [undefined, "identity"],
    ["", "identity"],
    ["gzip, deflate, br", "br"],
    ["gzip, deflate, br, zstd", "br"],
    ["br", "br"],
    ["gzip", "gzip"],
    ["gzip, deflate", "gzip"],
    ["deflate", "identity"],
    ["zstd", "identity"],
    ["identity", "identity"],
    ["*", "br"],
    // q-values.
    ["br;q=0.5, gzip", "gzip"],
    ["br;q=0.9, gzip;q=0.9", "br"],
    ["gzip;q=1.0, br;q=0.999", "gzip"],
    ["gzip;q=0.5, br;q=0.5, identity;q=0.5", "br"],
    ["gzip;q=0.5, identity;q=0.6", "identity"],
    ["gzip;q=0.5", "gzip"],
    ["gzip;q=0.001", "gzip"],
    ["zstd, br;q=0.1", "br"],
    ["gzip;q=1.000", "gzip"],
    ["gzip;q=1.", "gzip"],
    ["gzip;q=0.", "identity"],
    ["gzip;q=0.05, br;q=0.049", "gzip"],
    // q=0 forbids.
    ["br;q=0, gzip", "gzip"],
    ["br;q=0, *", "gzip"],
    ["gzip;q=0, br;q=0", "identity"],
    ["gzip;q=0.000", "identity"],
    ["br;q=0, gzip;q=0, *", "identity"],
    // "*" weighs every coding not listed, identity included.
    ["*;q=0", "identity"],
    ["*;q=0, gzip", "gzip"],
    ["br;q=0.2, *;q=0.5", "gzip"],
    ["*;q=0.5, identity", "identity"],
    ["*;q=0.5, gzip;q=0.4", "br"],
    ["identity;q=0, *;q=0.1", "br"],
    // Refusing identity never yields 406: identity is still what we send.
    ["identity;q=0", "identity"],
    ["identity;q=0, *;q=0", "identity"],
    ["identity;q=0, deflate", "identity"],
    ["identity;q=0, gzip", "gzip"],
    // Case, whitespace, empty members, x-gzip.
    ["BR", "br"],
    ["GZIP", "gzip"],
    ["Gzip;Q=0.5", "gzip"],
    ["gzip;Q=0, Br", "br"],
    ["x-gzip", "gzip"],
    ["X-GZIP;q=0.8", "gzip"],
    [" gzip , br ;q=0.1 ", "gzip"],
    ["gzip ; q=0.5 , br ; q=0.4", "gzip"],
    ["\tbr\t", "br"],
    [",,gzip,,", "gzip"],
    [", , br", "br"],
    // A coding listed twice keeps its lower weight.
    ["gzip, gzip;q=0", "identity"],
    ["br;q=0.2, br, gzip;q=0.5", "gzip"],
    // Malformed weights drop their member, never the field.
    ["gzip;q=1.5", "identity"],
    ["gzip;q=2", "identity"],
    ["gzip;q=1.001", "identity"],
    ["gzip;q=0.5000", "identity"],
    ["gzip;q=.5", "identity"],
    ["gzip;q=", "identity"],
    ["gzip;q=abc", "identity"],
    ["gzip;q=-1", "identity"],
    ['gzip;q="0.5"', "identity"],
    ["gzip;q", "identity"],
    ["gzip;", "identity"],
    ["br;q=abc, gzip", "gzip"],
    ["gzip;q=0.5x, br", "br"],
    // Other parameters are skipped.
    ["gzip;level=9", "gzip"],
    ["gzip;q=0.5;foo=bar, br;q=0.4", "gzip"],
    // Broken members.
    ["gzip br", "identity"],
    ['"gzip"', "identity"],
    ["br/gzip", "identity"],
    ["gzip br, br", "br"],
    ["brotli", "identity"],
    ["gzipx", "identity"],
    ["b", "identity"],
  ])("%j → %s", (header, expected) => {
    expect(chooseEncoding(header, BOTH)).toBe(expected);
  });
});

describe("chooseEncoding with some variants missing", () => {
  it.each<[string | undefined, { br: boolean; gzip: boolean }, Encoding]>([
    ["br", { br: false, gzip: true }, "identity"],
    ["gzip, br", { br: false, gzip: true }, "gzip"],
    ["gzip, br", { br: true, gzip: false }, "br"],
    ["gzip", { br: true, gzip: false }, "identity"],
    ["br;q=1, gzip;q=0.5", { br: false, gzip: true }, "gzip"],
    ["br;q=0.5, gzip;q=1", { br: true, gzip: false }, "br"],
    ["*", { br: false, gzip: false }, "identity"],
    ["*", { br: false, gzip: true }, "gzip"],
    ["gzip, deflate, br", { br: false, gzip: false }, "identity"],
    [undefined, { br: false, gzip: false }, "identity"],
  ])("%j with %j → %s", (header, available, expected) => {
    expect(chooseEncoding(header, available)).toBe(expected);
  });

  it("answers the same header differently per availability (cache keyed by header only)", () => {
    const header = "gzip;q=0.9, br";
    expect(chooseEncoding(header, BOTH)).toBe("br");
    expect(chooseEncoding(header, { br: false, gzip: true })).toBe("gzip");
    expect(chooseEncoding(header, { br: false, gzip: false })).toBe("identity");
    expect(chooseEncoding(header, BOTH)).toBe("br");
  });

  it("stays right after the cache has been churned and for headers too long to cache", () => {
    for (let k = 0; k < 1000; k++) expect(chooseEncoding(`gzip;q=0.${k % 10}${k % 7}1, x-${k}`, BOTH)).toBe("gzip");
    expect(chooseEncoding("gzip, deflate, br", BOTH)).toBe("br");
    const long = `${"x-unknown, ".repeat(50)}gzip;q=0.3, br;q=0.2`;
    expect(chooseEncoding(long, BOTH)).toBe("gzip");
    expect(chooseEncoding(long, BOTH)).toBe("gzip");
  });
});

describe("isCompressible", () => {
  it.each<[string, boolean]>([
    ["text/html", true],
    ["text/html; charset=utf-8", true],
    ["TEXT/HTML; charset=UTF-8", true],
    [" text/css ", true],
    ["text/plain", true],
    ["text/javascript", true],
    ["text/csv", true],
    ["text/markdown; charset=utf-8", true],
    ["application/javascript", true],
    ["application/x-javascript", true],
    ["application/json", true],
    ["application/json;charset=utf-8", true],
    ["application/ld+json", true],
    ["application/manifest+json", true],
    ["application/geo+json", true],
    ["application/xml", true],
    ["application/xhtml+xml", true],
    ["application/rss+xml", true],
    ["application/atom+xml", true],
    ["image/svg+xml", true],
    ["application/wasm", true],
    ["font/ttf", true],
    ["font/otf", true],
    ["application/vnd.ms-fontobject", true],
    ["image/x-icon", true],
    ["image/vnd.microsoft.icon", true],
    ["image/bmp", true],
    ["application/x-tar", true],
    ["image/png", false],
    ["image/jpeg", false],
    ["image/gif", false],
    ["image/webp", false],
    ["image/avif", false],
    ["video/mp4", false],
    ["video/webm", false],
    ["audio/mpeg", false],
    ["audio/ogg", false],
    ["application/zip", false],
    ["application/gzip", false],
    ["application/x-7z-compressed", false],
    ["application/epub+zip", false],
    ["application/pdf", false],
    ["font/woff", false],
    ["font/woff2", false],
    ["application/octet-stream", false],
    ["", false],
    ["json", false],
    ["application/jsonx", false],
  ])("%j → %s", (type, expected) => {
    expect(isCompressible(type)).toBe(expected);
    expect(isCompressible(type)).toBe(expected);
  });
});
