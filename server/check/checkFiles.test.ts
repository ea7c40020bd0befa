import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { parseRedirects } from "../siteConfig/redirects";
import { checkFiles, MAX_FILE_SCAN_BYTES, type CheckedFile } from "./checkFiles";

/** A site from path → content; the check reads from this map. */
function site(contents: Record<string, string>): { files: CheckedFile[]; read: (f: CheckedFile, max: number) => Promise<string> } {
  const files = Object.entries(contents).map(([path, text]) => ({
    path,
    sha256: path,
    size: Buffer.byteLength(text),
    contentType: path.endsWith(".html") ? "text/html" : path.endsWith(".css") ? "text/css" : "application/octet-stream",
  }));
  return { files, read: async (f, max) => Buffer.from(contents[f.path]!).subarray(0, max).toString("utf8") };
}

async function check(contents: Record<string, string>, redirects = "") {
  const { files, read } = site(contents);
  const parsed = parseRedirects(redirects);
  if (!parsed.ok) throw new Error(parsed.error);
  return checkFiles(files, parsed.rules, read);
}

const kinds = (outcome: Awaited<ReturnType<typeof check>>) => outcome.findings.map((f) => [f.kind, f.file, f.line, f.target]);

describe("checkFiles", () => {
  it("finds nothing in a site whose references all resolve", async () => {
    const outcome = await check({
      "index.html":
        '<link rel=stylesheet href="css/site.css"><img src="./img/logo.png"><a href="/about">About</a><a href="docs/">Docs</a><a href="https://example.com/x.png">x</a><a href="mailto:a@b.c">m</a><img src="data:image/png;base64,AA"><a href="#top">top</a><img src="img/logo.png?v=2#x">',
      "about.html": '<a href="/">Home</a><a href="index.html">Home</a><script src="//cdn.example.com/x.js"></script>',
      "docs/index.html": '<img src="../img/logo.png"><a href="/docs/">x</a>',
      "css/site.css": "body{background:url(../img/logo.png)} @import url('/css/more.css');",
      "css/more.css": "",
      "img/logo.png": "png",
    });
    expect(kinds(outcome)).toEqual([]);
    expect(outcome.problemCount).toBe(0);
    expect(outcome.filesChecked).toBe(5);
  });

  it("reports missing files, case mismatches, local paths and http resources with file and line", async () => {
    const outcome = await check({
      "index.html": [
        '<img src="images/Logo.PNG">',
        '<img src="missing.png"><a href="/nowhere">x</a>',
        '<a href="file:///C:/Users/me/site/page.html">x</a><img src="C:\\Users\\me\\pic.jpg"><script src="http://localhost:3000/app.js"></script>',
        '<script src="http://cdn.example.com/lib.js"></script><a href="http://example.com/">fine: a link</a>',
        '<link rel="stylesheet" href="/Style.css">',
      ].join("\n"),
      "images/logo.png": "x",
      "style.css": ".a{background:url(http://example.com/bg.png)}",
    });
    expect(kinds(outcome)).toEqual([
      ["case_mismatch", "index.html", 1, "images/Logo.PNG"],
      ["missing_file", "index.html", 2, "missing.png"],
      ["missing_file", "index.html", 2, "/nowhere"],
      ["local_link", "index.html", 3, "file:///C:/Users/me/site/page.html"],
      ["local_link", "index.html", 3, "C:\\Users\\me\\pic.jpg"],
      ["local_link", "index.html", 3, "http://localhost:3000/app.js"],
      ["insecure_resource", "index.html", 4, "http://cdn.example.com/lib.js"],
      ["case_mismatch", "index.html", 5, "/Style.css"],
      ["insecure_resource", "style.css", 1, "http://example.com/bg.png"],
    ]);
    expect(outcome.findings[0]!.actual).toBe("images/logo.png");
    expect(outcome.renames).toEqual([
      { from: "images/logo.png", to: "images/Logo.PNG", keep: false },
      { from: "style.css", to: "Style.css", keep: false },
    ]);
  });

  it("keeps a file's own name when it is also referenced as it is", async () => {
    const outcome = await check({ "index.html": '<img src="Logo.png"><img src="logo.png">', "logo.png": "x" });
    expect(outcome.renames).toEqual([{ from: "logo.png", to: "Logo.png", keep: true }]);
  });

  it("resolves clean URLs, _redirects and fallbacks as the edge does", async () => {
    const outcome = await check(
      {
        "index.html":
          '<a href="/old">x</a><a href="/app/route">x</a><img src="/img/missing.png"><script src="/assets/app.js"></script><a href="/About">x</a>',
        "about.html": "",
        "app.js": "",
      },
      "/old /about 301\n/assets/* /:splat 200\n/app/* /index.html 200",
    );
    // A rewrite to index.html answers a link; an image answered by a page is missing. /About → about.html differs in case.
    expect(kinds(outcome)).toEqual([
      ["missing_file", "index.html", 1, "/img/missing.png"],
      ["case_mismatch", "index.html", 1, "/About"],
    ]);
    expect(outcome.renames).toEqual([{ from: "about.html", to: "About.html", keep: false }]);
  });

  it("treats a single-page app's fallback as a page for links, not for resources", async () => {
    const outcome = await check({ "index.html": '<a href="/settings">x</a><script src="/main.js"></script>', "200.html": "" });
    expect(kinds(outcome)).toEqual([["missing_file", "index.html", 1, "/main.js"]]);
  });

  it("follows <base href>", async () => {
    const outcome = await check({ "index.html": '<base href="/static/"><img src="a.png"><img src="b.png">', "static/a.png": "" });
    expect(kinds(outcome)).toEqual([["missing_file", "index.html", 1, "b.png"]]);
    const external = await check({ "index.html": '<base href="https://cdn.example.com/"><img src="a.png">' });
    expect(kinds(external)).toEqual([]);
  });

  it("reports a missing index.html with the likely entry files, and nested ones", async () => {
    const outcome = await check({ "about.html": "", "Home.html": "", "404.html": "", "site/index.html": "", "notes.pdf": "" });
    const noIndex = outcome.findings[0]!;
    expect(noIndex.kind).toBe("no_index");
    expect(noIndex.candidates).toEqual(["Home.html", "about.html"]);
    expect(noIndex.nested).toEqual(["site"]);
    expect((await check({ "index.htm": "" })).findings).toEqual([]);
    expect((await check({ "report.pdf": "", "slides.pdf": "" })).findings).toEqual([]);
    expect((await check({ "page.html": "" })).findings).toEqual([]); // a one-page site is served as it is
    // The generated listing shadows rules that are not forced, as it does on the edge.
    expect((await check({ "a.html": "", "b.html": "" }, "/ /a 302!")).findings).toEqual([]);
  });

  it("reports one finding per file and reference, and caps what it stores", async () => {
    const many = Array.from({ length: 500 }, (_, i) => `<img src="m${i}.png">`).join("\n");
    const outcome = await check({ "index.html": `<img src="x.png"><img src="x.png">\n${many}` });
    expect(outcome.problemCount).toBe(501);
    expect(outcome.counts).toEqual({ missing_file: 501 });
    expect(outcome.findings).toHaveLength(200);
    expect(outcome.truncated).toBe(true);
  });

  it("reads a bounded part of huge files and says so", async () => {
    const huge = "<p>" + "x".repeat(MAX_FILE_SCAN_BYTES) + '<img src="beyond.png">';
    const outcome = await check({ "index.html": huge });
    expect(outcome.filesPartlyChecked).toBe(1);
    expect(kinds(outcome)).toEqual([]);
  });

  it("ignores templates and made-up schemes, and cuts long targets", async () => {
    const outcome = await check({
      "index.html": `<img src="{{ url }}"><a href="javascript:void(0)">x</a><a href="tel:123">x</a><img src="${"é".repeat(400)}.png">`,
    });
    expect(outcome.findings).toHaveLength(1);
    expect(outcome.findings[0]!.target!.length).toBeLessThanOrEqual(301);
  });

  it("stays linear on hostile pages checked one after another", async () => {
    // Measured: after a binary page (a two-byte string), V8's indexOf took 20 s on a megabyte of
    // "<" that followed; the scanners search with find.ts.
    const pages = [randomBytes(2_000_000).toString("utf8"), "<".repeat(1_000_000), "<!>".repeat(400_000), "</".repeat(500_000)];
    for (const text of pages) {
      const started = performance.now();
      await checkFiles([{ path: "a.html", sha256: "a", size: text.length, contentType: "text/html" }], [], async () => text);
      expect(performance.now() - started).toBeLessThan(1500);
    }
  });
});
