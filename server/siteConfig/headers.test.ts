import { describe, expect, it } from "vitest";
import { headersFor, parseHeaders, type HeaderRule } from "./headers";

function rulesOf(text: string): HeaderRule[] {
  const parsed = parseHeaders(text);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.rules;
}

describe("parseHeaders: rules", () => {
  it("reads paths and their indented headers, skipping blank lines and comments", () => {
    const text = [
      "# Security",
      "/*",
      "  X-Frame-Options: DENY",
      "  # Referrer-Policy: no-referrer",
      "",
      "  Referrer-Policy: same-origin",
      "/assets/*   # long-lived",
      "\tCache-Control: public, max-age=31536000, immutable",
    ].join("\n");
    expect(rulesOf(text)).toEqual([
      {
        pattern: "/*",
        headers: [
          ["X-Frame-Options", "DENY"],
          ["Referrer-Policy", "same-origin"],
        ],
        line: 2,
      },
      { pattern: "/assets/*", headers: [["Cache-Control", "public, max-age=31536000, immutable"]], line: 7 },
    ]);
  });

  it("handles CRLF line endings and a BOM", () => {
    expect(rulesOf("\uFEFF/a\r\n  X-A: 1\r\n\r\n/b\r\n  X-B: 2\r\n")).toEqual([
      { pattern: "/a", headers: [["X-A", "1"]], line: 1 },
      { pattern: "/b", headers: [["X-B", "2"]], line: 4 },
    ]);
  });

  it.each<[string, string, Array<[string, string]>]>([
    ["unindented header lines", "/a\nX-A: 1", [["X-A", "1"]]],
    ["no space after the colon", "/a\n  X-A:1", [["X-A", "1"]]],
    ["space before the colon", "/a\n  X-A :1", [["X-A", "1"]]],
    ["# and : in a value are data", "/a\n  Link: </a.css#x>; rel=preload # not a comment", [["Link", "</a.css#x>; rel=preload # not a comment"]]],
    ["URL value", "/a\n  Access-Control-Allow-Origin: https://example.com:8443", [["Access-Control-Allow-Origin", "https://example.com:8443"]]],
    ["tab inside a value", "/a\n  X-A: 1\t2", [["X-A", "1\t2"]]],
    ["trailing whitespace is trimmed", "/a\n  X-A: 1 \t ", [["X-A", "1"]]],
    ["token punctuation in a name", "/a\n  X-A!#$%&'*+-.^_`|~9: v", [["X-A!#$%&'*+-.^_`|~9", "v"]]],
    ["Content-Type may be overridden", "/a\n  Content-Type: text/plain; charset=utf-8", [["Content-Type", "text/plain; charset=utf-8"]]],
    ["a path with no headers", "/a\n# X-A: 1", []],
  ])("%s", (_name, text, headers) => {
    expect(rulesOf(text)).toEqual([{ pattern: "/a", headers, line: 1 }]);
  });

  it.each(["", "\uFEFF", "# only a comment", "\n\r\n  \t\n"])("%j has no rules", (text) => {
    expect(parseHeaders(text)).toEqual({ ok: true, rules: [] });
  });

  it("accepts 500 path rules and lines of 8,000 characters", () => {
    const rules = Array.from({ length: 500 }, (_, i) => `/p${i}\n  X-N: ${i}`);
    expect(rulesOf(rules.join("\n"))).toHaveLength(500);
    const line = `  X-Long: ${"v".repeat(7_990)}`;
    expect(line).toHaveLength(8_000);
    expect(rulesOf(`/a\n${line}`)[0]!.headers[0]![1]).toHaveLength(7_990);
  });

  it("refuses the 501st path rule on its own line", () => {
    const rules = Array.from({ length: 501 }, (_, i) => `/p${i}\n  X-N: ${i}`);
    expect(parseHeaders(`# header\n${rules.join("\n")}`)).toEqual({
      ok: false,
      error: "_headers line 1002: too many path rules (more than 500)",
    });
  });
});

describe("parseHeaders: errors", () => {
  const forbidden: Array<[string, string]> = [
    ...["Content-Length", "Transfer-Encoding", "Connection", "Keep-Alive", "Upgrade", "TE", "Trailer"].map((name): [string, string] => [
      `  ${name}: x`,
      `${name} cannot be set: the server frames the response itself; a site's value would corrupt it`,
    ]),
    ["  Content-Encoding: gzip", "Content-Encoding cannot be set: it must describe the bytes Berth actually sends"],
    ["  Content-Range: bytes 0-1/2", "Content-Range cannot be set: it must describe the bytes Berth actually sends"],
    ["  Set-Cookie: a=b; Domain=example.com", "Set-Cookie cannot be set: sites cannot set cookies through _headers"],
    ["  SET-COOKIE: a=b", "SET-COOKIE cannot be set: sites cannot set cookies through _headers"],
    ["  set-cookie: a=b", "set-cookie cannot be set: sites cannot set cookies through _headers"],
    ["  X-Content-Type-Options: sniff", "X-Content-Type-Options cannot be set: Berth always sends X-Content-Type-Options: nosniff"],
    // Headers whose effect reaches past the site's own origin, to its neighbours under the same parent domain.
    ["  Set-Cookie2: a=b; Domain=.localhost; Version=1", "Set-Cookie2 cannot be set: sites cannot set cookies through _headers"],
    ...['"cookies"', '"*"', '"cache", "storage"', '"executionContexts"'].map((value): [string, string] => [
      `  Clear-Site-Data: ${value}`,
      "Clear-Site-Data cannot be set: it clears cookies of every site under the same parent domain, not only this site's",
    ]),
    [
      '  clear-site-data: "cookies"',
      "clear-site-data cannot be set: it clears cookies of every site under the same parent domain, not only this site's",
    ],
    ...[
      "max-age=31536000; includeSubDomains",
      "max-age=31536000; includeSubDomains; preload",
      "includesubdomains;max-age=1",
      "max-age=1 ; INCLUDESUBDOMAINS ",
    ].map((value): [string, string] => [
      `  Strict-Transport-Security: ${value}`,
      "Strict-Transport-Security cannot use includeSubDomains: it would force HTTPS on every host under this one, which need not be this site's",
    ]),
  ];

  // Each bad line is the fourth, after a comment, a path and a good header.
  it.each<[string, string]>([
    [`  X-Long: ${"v".repeat(7_991)}`, "line too long (more than 8,000 characters)"],
    [`# ${"c".repeat(7_999)}`, "line too long (more than 8,000 characters)"],
    ["  X-A b", 'expected a path starting with / or a "Name: value" header line'],
    ["docs/*", 'expected a path starting with / or a "Name: value" header line'],
    ["  \r  ", "the line contains CR"],
    ["  X-A\u0000", "the line contains NUL"],
    ["https://example.com/*", "a path must start with / (absolute URLs are not supported)"],
    ["  X A: b", 'invalid header name "X A"'],
    ["  : b", 'invalid header name ""'],
    ["  X(A): b", 'invalid header name "X(A)"'],
    ["  Nämé: b", 'invalid header name "Nämé"'],
    ["  X-A\u0001: b", 'invalid header name "X-A\u0001"'],
    ...forbidden,
    ["  X-A: a\u0000b", "the value of X-A contains NUL"],
    ["  X-A: a\rb", "the value of X-A contains CR"],
    ["  X-A: a\r ", "the value of X-A contains CR"],
    ["  X-A: a\u0001b", "the value of X-A contains a control character (U+0001)"],
    ["  X-A: a\u007fb", "the value of X-A contains a control character (U+007F)"],
    ["  X-A: café", "the value of X-A contains a non-ASCII character (U+00E9)"],
    ["  X-A: 🙂", "the value of X-A contains a non-ASCII character (U+1F642)"],
    ["  X-A:", "empty value for X-A"],
    ["  X-A:   \t", "empty value for X-A"],
    ["/a /b", 'a path line holds one pattern ("/b" follows it)'],
    ["/a?x=1", "a path pattern cannot contain ? or # (query strings are not matched)"],
    ["/a#x", "a path pattern cannot contain ? or # (query strings are not matched)"],
    ["/a\u0001", "the path contains a control character"],
    ["/a\r ", "the path contains a control character"],
    ["/:", 'invalid placeholder ":" (use :name for a whole segment)'],
    ["/:1", 'invalid placeholder ":1" (use :name for a whole segment)'],
    ["/:id.json", 'invalid placeholder ":id.json" (use :name for a whole segment)'],
    ["/%zz/*", 'invalid percent-encoding in the path ("%zz")'],
    ["/a%2Fb", 'a path cannot contain %2F, %5C or \\ ("a%2Fb"): the edge refuses such paths'],
    ["/a%5cb/*", 'a path cannot contain %2F, %5C or \\ ("a%5cb"): the edge refuses such paths'],
    ["/a\\b", 'a path cannot contain %2F, %5C or \\ ("a\\b"): the edge refuses such paths'],
  ])("%j", (line, reason) => {
    expect(parseHeaders(`# headers\n/ok\n  X-Ok: 1\n${line}\n/later\n  X-B: 2`)).toEqual({
      ok: false,
      error: `_headers line 4: ${reason}`,
    });
  });

  it.each(["X-Frame-Options: DENY", "  X-Frame-Options: DENY"])("refuses %j before any path", (line) => {
    expect(parseHeaders(`# headers\n\n${line}\n/a\n  X-A: 1`)).toEqual({
      ok: false,
      error: "_headers line 3: header line before any path (start with a path such as /*)",
    });
  });
});

describe("parseHeaders: headers that act on the site's own origin only are the site's to set", () => {
  it.each([
    "Strict-Transport-Security: max-age=31536000",
    "Strict-Transport-Security: max-age=31536000; preload",
    "Service-Worker-Allowed: /",
    "Origin-Agent-Cluster: ?1",
    "Supports-Loading-Mode: credentialed-prerender",
    'NEL: {"report_to":"default","max_age":86400}',
    'Report-To: {"group":"default","max_age":86400,"endpoints":[{"url":"https://reports.example.org/"}]}',
    'Reporting-Endpoints: default="https://reports.example.org/"',
    "Access-Control-Allow-Origin: *",
    "Cross-Origin-Opener-Policy: same-origin",
    "X-Include-Subdomains-Note: includeSubDomains",
  ])("%s", (line) => {
    const colon = line.indexOf(":");
    expect(rulesOf(`/*\n  ${line}`)[0]!.headers).toEqual([[line.slice(0, colon), line.slice(colon + 2)]]);
  });
});

describe("headersFor", () => {
  it.each<[string, string, boolean]>([
    ["/*", "/", true],
    ["/*", "/a", true],
    ["/*", "/a/b/c.js", true],
    ["/", "/", true],
    ["/", "/a", false],
    ["/about", "/about", true],
    ["/about", "/about/", true],
    ["/about/", "/about", true],
    ["/about", "/About", false],
    ["/about", "/about/team", false],
    ["/about", "/aboutx", false],
    ["//a//b/", "/a/b", true],
    ["/a/b", "//a//b//", true],
    ["/assets/*", "/assets", true],
    ["/assets/*", "/assets/", true],
    ["/assets/*", "/assets/app.js", true],
    ["/assets/*", "/assets/img/a.png", true],
    ["/assets/*", "/assetsx", false],
    ["/assets/*", "/other/assets/a.js", false],
    ["/*.css", "/a.css", true],
    ["/*.css", "/a/b/c.css", true],
    ["/*.css", "/a.css.map", false],
    ["/*.css", "/a.js", false],
    ["/a*", "/a", true],
    ["/a*", "/abc/d", true],
    ["/a/*/c", "/a/b/c", true],
    ["/a/*/c", "/a/b/x/c", true],
    ["/a/*/c", "/a/c", false],
    ["/*/*", "/a", true],
    ["/*a*b", "/xaybzb", true],
    ["/*a*b", "/xbya", false],
    ["/**", "/a/b", true],
    ["/blog/:slug", "/blog/hello", true],
    ["/blog/:slug", "/blog/hello/", true],
    ["/blog/:slug", "/blog", false],
    ["/blog/:slug", "/blog/a/b", false],
    ["/:lang/docs/*", "/fr/docs/a/b", true],
    ["/:lang/docs/*", "/fr/docs", true],
    ["/:lang/docs/*", "/docs/a", false],
    ["/*/:id/edit", "/a/b/c/edit", true],
    ["/*/:id/edit", "/a/edit", false],
    ["/users/:id/*.json", "/users/7/a/b.json", true],
    ["/users/:id/*.json", "/users/7.json", false],
    ["/caf%C3%A9", "/café", true],
    ["/café/*", "/café/menu", true],
    ["/cafe\u0301", "/café", true],
    ["/*", "relative", false],
  ])("%s matches %j: %s", (pattern, path, expected) => {
    const headers = headersFor(rulesOf(`${pattern}\n  X-Hit: yes`), path);
    expect(headers).toEqual(expected ? [["X-Hit", "yes"]] : []);
  });

  it("joins values of the same header from every matching rule in file order", () => {
    const rules = rulesOf(
      [
        "/*",
        "  Cache-Control: no-cache",
        "  Link: </a.css>; rel=preload",
        "/blog/*",
        "  X-Section: blog",
        "  link: </b.css>; rel=preload",
        "/other",
        "  X-Other: no",
        "/blog/:slug",
        "  LINK: </c.css>; rel=preload",
        "  Link: </d.css>; rel=preload",
      ].join("\n"),
    );
    expect(headersFor(rules, "/blog/post")).toEqual([
      ["Cache-Control", "no-cache"],
      ["Link", "</a.css>; rel=preload, </b.css>; rel=preload, </c.css>; rel=preload, </d.css>; rel=preload"],
      ["X-Section", "blog"],
    ]);
    expect(headersFor(rules, "/")).toEqual([
      ["Cache-Control", "no-cache"],
      ["Link", "</a.css>; rel=preload"],
    ]);
    // Asking again returns the same, so the merge never writes into the rules.
    expect(headersFor(rules, "/")).toEqual(headersFor(rules, "/"));
  });

  it("uses hand-built rules and ignores ones that would not parse", () => {
    const rules: HeaderRule[] = [
      { pattern: "/:1", headers: [["X-Bad", "1"]], line: 1 },
      { pattern: "/a/*", headers: [["X-Good", "1"]], line: 2 },
    ];
    expect(headersFor(rules, "/a/b")).toEqual([["X-Good", "1"]]);
  });

  it("matches without backtracking on hostile patterns", () => {
    const rules = rulesOf(`/${"*a".repeat(30)}*b\n  X-Hit: yes\n/${"*a".repeat(30)}\n  X-A: yes`);
    const start = performance.now();
    expect(headersFor(rules, `/${"a".repeat(10_000)}`)).toEqual([["X-A", "yes"]]);
    expect(performance.now() - start).toBeLessThan(1_000);
  });

  // The matcher takes each piece's leftmost match instead of backtracking; a regular expression
  // with the same meaning is the reference on small random cases.
  it("agrees with a regular-expression reference on 5,000 random cases", () => {
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    const pick = <T>(items: readonly T[]) => items[random(items.length)]!;
    const reference = (pattern: string, path: string) => {
      const segments = pattern.split("/").filter(Boolean);
      const body = segments
        .map((s) =>
          s.startsWith(":")
            ? "[^/]+"
            : s
                .split("*")
                .map((l) => l.replace(/[.]/g, "\\."))
                .join(".*"),
        )
        .join("/");
      const regex = new RegExp(`^/${body}$`);
      const normal = `/${path.split("/").filter(Boolean).join("/")}`;
      return regex.test(normal) || (segments.at(-1) === "*" && regex.test(`${normal}/`));
    };
    for (let i = 0; i < 5_000; i++) {
      const pattern = `/${Array.from({ length: 1 + random(4) }, () => pick(["a", "b", "*", "a*", "*b", "a*b", ":p", ""])).join("/")}`;
      const path = `/${Array.from({ length: random(5) }, () => pick(["a", "b", "ab", "ba", "aab", ""])).join("/")}`;
      const got = headersFor(rulesOf(`${pattern}\n  X-Hit: 1`), path).length === 1;
      expect([pattern, path, got]).toEqual([pattern, path, reference(pattern, path)]);
    }
  });
});
