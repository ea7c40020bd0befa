import { describe, expect, it } from "vitest";
import { matchRedirect, parseRedirects, SPA_RULE, type RedirectRule } from "./redirects";

function rulesOf(text: string): RedirectRule[] {
  const parsed = parseRedirects(text);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.rules;
}

function match(text: string, path: string, fileExists = false) {
  return matchRedirect(rulesOf(text), path, { fileExists });
}

describe("parseRedirects: rules", () => {
  it.each<[string, string, Partial<RedirectRule>]>([
    ["status defaults to 301", "/a /b", { from: "/a", to: "/b", status: 301, force: false }],
    ["200", "/a /b 200", { status: 200, force: false }],
    ["301", "/a /b 301", { status: 301, force: false }],
    ["302", "/a /b 302", { status: 302, force: false }],
    ["307", "/a /b 307", { status: 307, force: false }],
    ["308", "/a /b 308", { status: 308, force: false }],
    ["404", "/a /b 404", { status: 404, force: false }],
    ["200!", "/a /b 200!", { status: 200, force: true }],
    ["301!", "/a /b 301!", { status: 301, force: true }],
    ["302!", "/a /b 302!", { status: 302, force: true }],
    ["307!", "/a /b 307!", { status: 307, force: true }],
    ["308!", "/a /b 308!", { status: 308, force: true }],
    ["404!", "/a /b 404!", { status: 404, force: true }],
    ["tabs and runs of spaces", " \t/a \t\t /b\t  302  ", { from: "/a", to: "/b", status: 302 }],
    ["trailing comment", "/a /b 302 # moved in 2024", { to: "/b", status: 302 }],
    ["trailing comment without status", "/a /b #moved", { to: "/b", status: 301 }],
    ["# inside a field is a fragment", "/a /b#top 302", { to: "/b#top", status: 302 }],
    ["absolute target", "/a https://example.com/x?y=1 308", { to: "https://example.com/x?y=1" }],
    ["target with a port", "/a http://localhost:3000/ 302", { to: "http://localhost:3000/" }],
    ["placeholders", "/blog/:year/:slug /posts/:year-:slug", { from: "/blog/:year/:slug", to: "/posts/:year-:slug" }],
    ["splat", "/docs/* /documentation/:splat 302", { from: "/docs/*", to: "/documentation/:splat" }],
    ["splat into an absolute target", "/old/* https://example.com/:splat", { to: "https://example.com/:splat" }],
    ["placeholder in the target's query", "/search/:q /find?q=:q 302", { to: "/find?q=:q" }],
    ["root", "/ /home", { from: "/", to: "/home" }],
    ["a numeric colon is not a placeholder", "/a /at/12:30", { to: "/at/12:30" }],
  ])("%s", (_name, text, expected) => {
    expect(rulesOf(text)).toEqual([expect.objectContaining({ line: 1, ...expected })]);
  });

  it("skips blank lines and comments, handles CRLF and a BOM, and numbers lines from 1", () => {
    const text = "\uFEFF# Redirects\r\n\r\n/one /1\r\n   # indented comment\r\n\t\r\n/two /2 302!\r\n";
    expect(rulesOf(text)).toEqual([
      { from: "/one", to: "/1", status: 301, force: false, line: 3 },
      { from: "/two", to: "/2", status: 302, force: true, line: 6 },
    ]);
  });

  it.each(["", "\uFEFF", "# only a comment", "\n\n\r\n", "  # x\n#y"])("%j has no rules", (text) => {
    expect(parseRedirects(text)).toEqual({ ok: true, rules: [] });
  });

  it("accepts 2,000 rules (comments do not count) and lines of 2,000 characters", () => {
    const rules = Array.from({ length: 2_000 }, (_, i) => `/r${i} /t${i}`);
    expect(rulesOf(["# header", ...rules].join("\n"))).toHaveLength(2_000);
    const long = `/a /${"b".repeat(1_996)}`;
    expect(long).toHaveLength(2_000);
    expect(rulesOf(long)[0]!.to).toHaveLength(1_997);
  });

  it("refuses the 2,001st rule on its own line", () => {
    const rules = Array.from({ length: 2_001 }, (_, i) => `/r${i} /t${i}`);
    expect(parseRedirects(["# header", ...rules].join("\n"))).toEqual({
      ok: false,
      error: "_redirects line 2002: too many rules (more than 2,000)",
    });
  });
});

describe("parseRedirects: errors", () => {
  const long = "too long (more than 2,000 characters)";
  // Each bad line is the fourth, after a comment, a blank line and a good rule.
  it.each<[string, string]>([
    [`/a /${"b".repeat(1_997)}`, `line ${long}`],
    [`# ${"c".repeat(1_999)}`, `line ${long}`],
    ["/a", 'missing target (expected "from to [status][!]")'],
    ["/a   # /b 301", 'missing target (expected "from to [status][!]")'],
    ["a /b", 'from must start with / ("a")'],
    ["*/x /b", 'from must start with / ("*/x")'],
    [
      "https://example.com/* https://www.example.com/:splat 301!",
      'domain-level redirects are not supported: from must be a path starting with /, not a URL ("https://example.com/*")',
    ],
    ["/a?x=1 /b", "from cannot contain ? or # (query-parameter conditions are not supported)"],
    ["/a#x /b", "from cannot contain ? or # (query-parameter conditions are not supported)"],
    ["/store id=:id /blog/:id 301", 'query-parameter conditions are not supported ("id=:id")'],
    ["/a /b 303", 'unknown status "303" (allowed: 200, 301, 302, 307, 308, 404, with an optional !)'],
    ["/a /b 0301", 'unknown status "0301" (allowed: 200, 301, 302, 307, 308, 404, with an optional !)'],
    ["/a /b 301!!", 'unknown status "301!!" (allowed: 200, 301, 302, 307, 308, 404, with an optional !)'],
    ["/a /b !", 'unknown status "!" (allowed: 200, 301, 302, 307, 308, 404, with an optional !)'],
    ["/a /b moved", 'unknown status "moved" (allowed: 200, 301, 302, 307, 308, 404, with an optional !)'],
    ["/ /fr 302 Country=fr,be", 'country conditions are not supported ("Country=fr,be")'],
    ["/ /fr 302 Language=fr", 'language conditions are not supported ("Language=fr")'],
    ["/admin/* /admin/:splat 200! Role=admin", 'role conditions are not supported ("Role=admin")'],
    ["/ /beta 302 Cookie=beta", 'cookie conditions are not supported ("Cookie=beta")'],
    ["/ /x 302 Foo=bar", 'conditions are not supported ("Foo=bar")'],
    ["/ /fr Country=fr", 'country conditions are not supported ("Country=fr")'],
    ["/a /b 301 extra", 'unsupported field "extra" after the status (only "from to [status][!]" is supported)'],
    ["/a/*/b /c", "* is only supported as the last segment of from (/path/*)"],
    ["/a* /b", "* is only supported as the last segment of from (/path/*)"],
    ["/*.html /b", "* is only supported as the last segment of from (/path/*)"],
    ["/: /b", 'invalid placeholder ":" in from (use :name for a whole segment)'],
    ["/:1st /b", 'invalid placeholder ":1st" in from (use :name for a whole segment)'],
    ["/:a.html /b", 'invalid placeholder ":a.html" in from (use :name for a whole segment)'],
    ["/:splat /b", ":splat is the value of *; end from with /* instead"],
    ["/:id/:id /b", "duplicate placeholder :id in from"],
    ["/%zz /b", 'invalid percent-encoding in from ("%zz")'],
    ["/a%2Fb /c", 'from cannot contain %2F, %5C or \\ ("a%2Fb"): the edge refuses such paths'],
    ["/a%5C /c", 'from cannot contain %2F, %5C or \\ ("a%5C"): the edge refuses such paths'],
    ["/a\\b /c", 'from cannot contain %2F, %5C or \\ ("a\\b"): the edge refuses such paths'],
    ["/a //evil.com", "target cannot start with // (a protocol-relative URL points at another host)"],
    ["/a //:splat", "target cannot start with // (a protocol-relative URL points at another host)"],
    ["/a evil.com", 'target must be a path starting with / or an http(s) URL ("evil.com")'],
    ["/a ftp://example.com/", 'target must be a path starting with / or an http(s) URL ("ftp://example.com/")'],
    ["/a javascript:alert(1)", 'target must be a path starting with / or an http(s) URL ("javascript:alert(1)")'],
    ["/a https:///x", 'invalid target URL ("https:///x")'],
    ["/a https://exa%mple.com/", 'invalid target URL ("https://exa%mple.com/")'],
    ["/a https://example.com\\.evil.com/", 'invalid target URL ("https://example.com\\.evil.com/")'],
    ["/a https://user:pw@example.com/", "target URL cannot contain credentials"],
    ["/:sub https://:sub.example.com/", "placeholders cannot be used in the target's host"],
    ["/* https://example.com:splat", "placeholders cannot be used in the target's host"],
    ["/a https://*.example.com/", "placeholders cannot be used in the target's host"],
    ["/api/* https://api.example.com/:splat 200", "status 200 needs a path target: proxying to another host is not supported"],
    ["/gone https://example.com/404 404", "status 404 needs a path target: proxying to another host is not supported"],
    ["/a/:id /b/:slug", "unknown placeholder :slug in target"],
    ["/a /b/:splat", ":splat in the target needs from to end with /*"],
    ["/a\u0000 /b", "the line contains a control character"],
    ["/a /b\r/c", "the line contains a control character"],
    ["/a /b 301\u000b", "the line contains a control character"],
  ])("%j", (line, reason) => {
    expect(parseRedirects(`# rules\n\n/ok /fine\n${line}\n/later /x`)).toEqual({
      ok: false,
      error: `_redirects line 4: ${reason}`,
    });
  });
});

describe("matchRedirect", () => {
  it.each<[string, string, string, ReturnType<typeof matchRedirect>]>([
    ["exact path", "/a /b", "/a", { location: "/b", status: 301 }],
    ["status is passed on", "/a /b 307", "/a", { location: "/b", status: 307 }],
    ["404 serves a page", "/gone /404.html 404", "/gone", { location: "/404.html", status: 404 }],
    ["rewrite", "/app /app.html 200", "/app", { location: "/app.html", status: 200 }],
    ["trailing slash on the request", "/about /about-us", "/about/", { location: "/about-us", status: 301 }],
    ["trailing slash on the rule", "/about/ /about-us", "/about", { location: "/about-us", status: 301 }],
    ["empty segments in the request", "/a/b /c", "//a//b//", { location: "/c", status: 301 }],
    ["case-sensitive", "/About /x", "/about", undefined],
    ["no prefix match", "/a /b", "/a/c", undefined],
    ["no partial segment", "/a /b", "/ab", undefined],
    ["root only matches root", "/ /home", "/x", undefined],
    ["root", "/ /home", "/", { location: "/home", status: 301 }],
    ["placeholders", "/blog/:year/:slug /posts/:year/:slug", "/blog/2024/hi", { location: "/posts/2024/hi", status: 301 }],
    ["placeholders inside a target segment", "/b/:y/:s /p/:y-:s.html", "/b/2024/hi", { location: "/p/2024-hi.html", status: 301 }],
    ["placeholder needs its segment", "/blog/:year/:slug /x", "/blog/2024", undefined],
    ["placeholder is one segment", "/blog/:slug /x/:slug", "/blog/a/b", undefined],
    ["placeholder in the query", "/s/:q /find?q=:q 302", "/s/a&b=c", { location: "/find?q=a%26b%3Dc", status: 302 }],
    ["splat", "/docs/* /d/:splat", "/docs/a/b.html", { location: "/d/a/b.html", status: 301 }],
    ["empty splat with slash", "/docs/* /d/:splat", "/docs/", { location: "/d/", status: 301 }],
    ["empty splat without slash", "/docs/* /d/:splat", "/docs", { location: "/d/", status: 301 }],
    ["splat needs its prefix", "/docs/* /d/:splat", "/docsx/a", undefined],
    ["empty splat leaves no //", "/docs/* /d/:splat/index.html", "/docs", { location: "/d/index.html", status: 301 }],
    ["placeholder and splat", "/:lang/docs/* /docs/:splat?lang=:lang", "/fr/docs/a", { location: "/docs/a?lang=fr", status: 301 }],
    ["splat unused in target", "/old/* /new 302", "/old/x/y", { location: "/new", status: 302 }],
    ["splat into an absolute URL", "/o/* https://example.com/:splat", "/o/a b/c", { location: "https://example.com/a%20b/c", status: 301 }],
    ["empty splat into an absolute URL", "/o/* https://example.com/x/:splat/y", "/o", { location: "https://example.com/x/y", status: 301 }],
    ["absolute URL without a path", "/o https://example.com", "/o", { location: "https://example.com", status: 301 }],
    ["percent-encoded from", "/caf%C3%A9 /cafe", "/café", { location: "/cafe", status: 301 }],
    ["unicode from", "/café /cafe", "/café", { location: "/cafe", status: 301 }],
    ["NFD from matches the NFC path", "/cafe\u0301 /cafe", "/café", { location: "/cafe", status: 301 }],
    ["unicode target is encoded", "/a /café", "/a", { location: "/caf%C3%A9", status: 301 }],
    ["existing escapes are kept", "/a /caf%C3%A9", "/a", { location: "/caf%C3%A9", status: 301 }],
    ["stray % is encoded", "/a /100%", "/a", { location: "/100%25", status: 301 }],
    ["backslash is encoded", "/a /b\\c", "/a", { location: "/b%5Cc", status: 301 }],
    ["values are encoded per segment", "/w/* /wiki/:splat", "/w/a b/c?d/é", { location: "/wiki/a%20b/c%3Fd/%C3%A9", status: 301 }],
    ["first match wins", "/a /first\n/a /second", "/a", { location: "/first", status: 301 }],
    ["later rules still match", "/x /first\n/a /second 302", "/a", { location: "/second", status: 302 }],
    ["self-redirect is skipped", "/about/ /about", "/about/", undefined],
    ["self-redirect without slash is skipped", "/about/ /about", "/about", undefined],
    ["self-redirect with a query is skipped", "/a /a?ref=x 302", "/a", undefined],
    ["self-redirect through a placeholder is skipped", "/:p /:p/", "/x", undefined],
    ["a skipped self-redirect falls through", "/a/ /a\n/a /fallback 302", "/a", { location: "/fallback", status: 302 }],
    ["a self-rewrite is served", "/index.html /index.html 200", "/index.html", { location: "/index.html", status: 200 }],
    ["placeholder never captures ..", "/x/:p /y/:p", "/x/..", undefined],
    ["placeholder never captures .", "/x/:p /y/:p", "/x/.", undefined],
    ["splat never captures ..", "/x/* /y/:splat", "/x/a/../b", undefined],
    ["relative path", "/a /b", "a", undefined],
    ["lone surrogate", "/* /b", "/\ud800", undefined],
  ])("%s", (_name, text, path, expected) => {
    expect(match(text, path)).toEqual(expected);
  });

  it.each<[string, boolean, ReturnType<typeof matchRedirect>]>([
    ["/a /b 302", false, { location: "/b", status: 302 }],
    ["/a /b 302", true, undefined],
    ["/a /b 302!", true, { location: "/b", status: 302 }],
    ["/a /b 200", true, undefined],
    ["/a /b 200!", true, { location: "/b", status: 200 }],
    ["/a /b 404!", true, { location: "/b", status: 404 }],
    ["/a /shadowed\n/a /forced 301!", true, { location: "/forced", status: 301 }],
    ["/a /first\n/a /forced 301!", false, { location: "/first", status: 301 }],
  ])("%j with fileExists %s", (text, fileExists, expected) => {
    expect(match(text, "/a", fileExists)).toEqual(expected);
  });

  it("never matches a hand-built rule that would not parse", () => {
    const rules: RedirectRule[] = [
      { from: "nope", to: "/x", status: 301, force: false, line: 1 },
      { from: "/a", to: "//evil.com", status: 301, force: false, line: 2 },
      { from: "/a", to: "/b/:missing", status: 301, force: false, line: 3 },
      { from: "/a", to: "https://evil.com/", status: 200, force: false, line: 4 },
      { from: "/a", to: "/ok", status: 302, force: false, line: 5 },
    ];
    expect(matchRedirect(rules, "/a", { fileExists: false })).toEqual({ location: "/ok", status: 302 });
  });

  it("serves a single-page app with SPA_RULE", () => {
    const rules = rulesOf(SPA_RULE);
    expect(rules).toEqual([{ from: "/*", to: "/index.html", status: 200, force: false, line: 1 }]);
    expect(matchRedirect(rules, "/", { fileExists: false })).toEqual({ location: "/index.html", status: 200 });
    expect(matchRedirect(rules, "/settings/profile", { fileExists: false })).toEqual({ location: "/index.html", status: 200 });
    expect(matchRedirect(rules, "/assets/app.js", { fileExists: true })).toBeUndefined();
  });
});

describe("matchRedirect keeps path targets on this host", () => {
  const site = "https://site.example";
  // Request paths are decoded, so they can hold anything a segment can.
  const attacks = [
    "/r/..%2f",
    "/r/..%2f..%2fevil.com",
    "/r//evil.com",
    "/r///evil.com/x",
    "/r/%2F%2Fevil.com",
    "/r/\\evil.com",
    "/r/\\\\evil.com",
    "/r/%5C%5Cevil.com",
    "/r/http:/evil.com",
    "/r/https:",
    "/r/@evil.com",
    "/r/ /evil.com",
    "/r/\t/evil.com",
    "/r/?x=//evil.com",
    "/r/#//evil.com",
    "/r",
    "/r/",
  ];
  const targets = ["/:splat", "/:splat/x", "/x/:splat", "/:splat?from=:splat", "/:splat#:splat"];
  const cases = targets.flatMap((to) => attacks.map((path) => [to, path] as const));

  it.each(cases)("/r/* %s 302 at %j", (to, path) => {
    const result = match(`/r/* ${to} 302`, path);
    expect(result).toBeDefined();
    const location = result!.location;
    expect(location).toMatch(/^\/(?![/\\])/);
    expect(new URL(location, site).origin).toBe(site);
  });

  it.each(attacks.filter((path) => path.split("/").filter(Boolean).length === 2))("/r/:p /:p 302 at %j", (path) => {
    const location = match("/r/:p /:p 302", path)!.location;
    expect(location).toMatch(/^\/(?![/\\])/);
    expect(new URL(location, site).origin).toBe(site);
  });

  it.each(attacks)("/r/* https://example.com/:splat at %j keeps the host", (path) => {
    const location = match("/r/* https://example.com/:splat", path)!.location;
    expect(new URL(location).origin).toBe("https://example.com");
  });

  it.each<[string, string]>([
    ["/r/..%2f", "/..%252f"],
    ["/r//evil.com", "/evil.com"],
    ["/r/\\evil.com", "/%5Cevil.com"],
    ["/r/@evil.com", "/%40evil.com"],
    ["/r/http:/evil.com", "/http%3A/evil.com"],
  ])("%j becomes %j", (path, location) => {
    expect(match("/r/* /:splat 302", path)).toEqual({ location, status: 302 });
  });
});
