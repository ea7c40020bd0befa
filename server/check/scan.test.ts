import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { scanCss } from "./scanCss";
import { scanHtml, srcsetUrls, type HtmlRef } from "./scanHtml";

const refs = (html: string) => {
  const found: HtmlRef[] = [];
  scanHtml(html, (r) => found.push(r));
  return found.map((r) => [r.value, r.line, r.use]);
};
const css = (text: string) => {
  const found: string[] = [];
  scanCss(text, (r) => found.push(r.value));
  return found;
};

describe("scanHtml", () => {
  it("finds each loading attribute with its line and use", () => {
    const html = [
      "<!doctype html><html><head>",
      '<link rel="stylesheet" href="css/site.css"><link rel=canonical href="/about">',
      "<script src='app.js'></script>",
      "</head><body>",
      '<img src="a.png" srcset="b.png 2x, c.png 3x"><a href="/contact">x</a>',
      '<video poster="p.jpg" src="v.mp4"></video><object data="o.svg"></object>',
      '<div style="background: url(bg.png)"></div>',
    ].join("\n");
    expect(refs(html)).toEqual([
      ["css/site.css", 2, "resource"],
      ["/about", 2, "link"],
      ["app.js", 3, "resource"],
      ["a.png", 5, "resource"],
      ["b.png", 5, "resource"],
      ["c.png", 5, "resource"],
      ["/contact", 5, "link"],
      ["p.jpg", 6, "resource"],
      ["v.mp4", 6, "resource"],
      ["o.svg", 6, "resource"],
      ["bg.png", 7, "resource"],
    ]);
  });

  it("skips comments, script bodies and references in text", () => {
    const html =
      '<!-- <img src="no1.png"> --><script>var s = "<img src=no2.png>";</script><p>src="no3.png"</p><textarea><img src=no4.png></textarea><img src=yes.png>';
    expect(refs(html)).toEqual([["yes.png", 1, "resource"]]);
  });

  it("reads <style> blocks as CSS with their lines", () => {
    expect(refs("<style>\n@import 'x.css';\nbody{background:url(\"y.png\")}\n</style>")).toEqual([
      ["x.css", 2, "resource"],
      ["y.png", 3, "resource"],
    ]);
  });

  it("keeps the first of repeated attributes, as browsers do", () => {
    expect(refs('<img src="first.png" src="second.png">')).toEqual([["first.png", 1, "resource"]]);
  });

  it("reports <base href>", () => {
    expect(scanHtml('<head><base href="/sub/"></head>', () => {}).base).toBe("/sub/");
  });

  it("survives unterminated constructs", () => {
    for (const html of [
      "<img src=",
      '<img src="a.png',
      "<!-- open",
      "<script>never closed",
      "<",
      "<a href='x' ",
      "<style>url(",
      "<img srcset=',,,'",
    ]) {
      expect(() => refs(html)).not.toThrow();
    }
  });

  it("is linear on hostile input", () => {
    const cases = [
      "<a " + 'x="1" '.repeat(400_000) + 'href="deep.html">', // hundreds of thousands of attributes
      "<div>".repeat(300_000), // deep nesting
      "<".repeat(1_000_000), // a million tag openers
      "</".repeat(500_000) + "<script>" + "</scrip".repeat(200_000), // raw text that never closes
      "<img src=" + "a".repeat(3_000_000) + ">", // one huge value on one line
      "<style>" + "url(".repeat(500_000), // CSS openers that never close
      Buffer.from(Array.from({ length: 2_000_000 }, (_, i) => (i * 7919) % 256)).toString("latin1"), // binary
      randomBytes(2_000_000).toString("utf8"), // binary as UTF-8: a two-byte string…
      "<".repeat(1_000_000), // …after which V8's indexOf took 20 s on this (find.ts)
      "<!>".repeat(500_000),
    ];
    for (const html of cases) {
      const started = performance.now();
      refs(html);
      // Generous: a quadratic scan of these takes minutes.
      expect(performance.now() - started).toBeLessThan(1500);
    }
  });
});

describe("srcsetUrls", () => {
  it("splits candidates as browsers do", () => {
    expect(srcsetUrls("a.png 1x, b.png 2x").map((c) => c.url)).toEqual(["a.png", "b.png"]);
    expect(srcsetUrls("a.png,b.png").map((c) => c.url)).toEqual(["a.png,b.png"]);
    expect(srcsetUrls("a.png, b.png").map((c) => c.url)).toEqual(["a.png", "b.png"]);
    expect(srcsetUrls("data:image/png;base64,AAA= 1x, c.png 2x").map((c) => c.url)).toEqual(["data:image/png;base64,AAA=", "c.png"]);
    expect(srcsetUrls(" , ,")).toEqual([]);
  });
});

describe("scanCss", () => {
  it("finds url() and @import in every form", () => {
    expect(css(`@import "a.css"; @IMPORT url(b.css); .x{background:URL( 'c.png' )} .y{mask:url(d.svg#m)}`)).toEqual([
      "a.css",
      "b.css",
      "c.png",
      "d.svg#m",
    ]);
  });

  it("ignores comments and identifiers that merely end in url", () => {
    expect(css("/* url(no.png) */ .a{--myurl(x): 1; background: url(yes.png)}")).toEqual(["yes.png"]);
  });

  it("is linear on hostile input", () => {
    for (const text of ["url(".repeat(1_000_000), "/*".repeat(1_000_000), '"'.repeat(2_000_000), "@import ".repeat(300_000)]) {
      const started = performance.now();
      css(text);
      expect(performance.now() - started).toBeLessThan(1500);
    }
  });
});
