import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { isSafeHref, Markdown, type MarkdownOptions } from "./Markdown";

const html = (source: string, options: MarkdownOptions = {}) => renderToStaticMarkup(createElement(Markdown, { source, ...options }));

describe("Markdown blocks", () => {
  it("renders headings one to three, and deeper ones as level three", () => {
    expect(html("# One\n## Two\n### Three\n#### Four")).toBe("<h1>One</h1><h2>Two</h2><h3>Three</h3><h3>Four</h3>");
  });

  it("drops closing hashes but keeps a hash that is part of a word", () => {
    expect(html("## Title ##")).toBe("<h2>Title</h2>");
    expect(html("## Learn C#")).toBe("<h2>Learn C#</h2>");
  });

  it("joins the lines of a paragraph and splits paragraphs on blank lines", () => {
    expect(html("one\ntwo\n\nthree")).toBe("<p>one two</p><p>three</p>");
  });

  it("renders bullet lists with -, * and +", () => {
    expect(html("- a\n* b\n+ c")).toBe("<ul><li>a</li><li>b</li><li>c</li></ul>");
  });

  it("renders numbered lists and keeps a start other than 1", () => {
    expect(html("1. a\n2. b")).toBe("<ol><li>a</li><li>b</li></ol>");
    expect(html("3) c\n4) d")).toBe('<ol start="3"><li>c</li><li>d</li></ol>');
  });

  it("continues a list item on the following line", () => {
    expect(html("- breaks the law,\n  or infringes\n- next")).toBe("<ul><li>breaks the law, or infringes</li><li>next</li></ul>");
  });

  it("ends a list at a blank line and starts a new one when the kind changes", () => {
    expect(html("- a\n\nafter")).toBe("<ul><li>a</li></ul><p>after</p>");
    expect(html("- a\n1. b")).toBe("<ul><li>a</li></ul><ol><li>b</li></ol>");
  });

  it("renders a thematic break", () => {
    expect(html("a\n\n---\n\nb")).toBe("<p>a</p><hr/><p>b</p>");
  });

  it("handles Windows line endings", () => {
    expect(html("# T\r\n\r\nbody")).toBe("<h1>T</h1><p>body</p>");
  });
});

describe("Markdown inline", () => {
  it("renders bold, italic and code", () => {
    expect(html("**bold** and *it* and _it_ and `x = 1`")).toBe(
      "<p><strong>bold</strong> and <em>it</em> and <em>it</em> and <code>x = 1</code></p>",
    );
  });

  it("nests emphasis and leaves markers inside code alone", () => {
    expect(html("**very *much* so**")).toBe("<p><strong>very <em>much</em> so</strong></p>");
    expect(html("`**not bold**`")).toBe("<p><code>**not bold**</code></p>");
  });

  it("leaves unmatched markers, spaced asterisks and snake_case as text", () => {
    expect(html("**open")).toBe("<p>**open</p>");
    expect(html("2 * 3 * 4")).toBe("<p>2 * 3 * 4</p>");
    expect(html("BERTH_DATA_DIR and BERTH_APP_URL")).toBe("<p>BERTH_DATA_DIR and BERTH_APP_URL</p>");
  });

  it("honours backslash escapes", () => {
    expect(html("\\*not italic\\*")).toBe("<p>*not italic*</p>");
  });

  it("escapes HTML in the source instead of interpreting it", () => {
    expect(html("<script>alert(1)</script> <b>x</b>")).toBe("<p>&lt;script&gt;alert(1)&lt;/script&gt; &lt;b&gt;x&lt;/b&gt;</p>");
  });
});

describe("Markdown links", () => {
  it("links http(s), mailto and same-site paths", () => {
    expect(html("[site](https://example.com/a?b=1)")).toBe('<p><a href="https://example.com/a?b=1">site</a></p>');
    expect(html("[mail](mailto:ops@example.com)")).toBe('<p><a href="mailto:ops@example.com">mail</a></p>');
    expect(html("the [contact page](/contact).")).toBe('<p>the <a href="/contact">contact page</a>.</p>');
  });

  it("renders formatting inside link text and keeps parentheses in URLs", () => {
    expect(html("[**bold** link](https://en.wikipedia.org/wiki/Berth_(moorings))")).toBe(
      '<p><a href="https://en.wikipedia.org/wiki/Berth_(moorings)"><strong>bold</strong> link</a></p>',
    );
  });

  it("does not render a javascript: link as a link", () => {
    const out = html("[click me](javascript:alert(document.cookie))");
    expect(out).toBe("<p>click me</p>");
    expect(out).not.toContain("<a");
    expect(out).not.toContain("javascript");
  });

  it.each([
    "JavaScript:alert(1)",
    " javascript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "vbscript:msgbox",
    "//evil.example/path",
    "/\\evil.example",
    "ftp://example.com/file",
    "relative/path",
    "#top",
  ])("renders a link to %j as plain text", (href) => {
    expect(html(`[x](${href})`)).toBe("<p>x</p>");
  });

  it("lets the caller render safe links", () => {
    const out = html("[home](/)", { renderLink: ({ href, children }) => createElement("a", { href, "data-router": "" }, children) });
    expect(out).toBe('<p><a href="/" data-router="">home</a></p>');
  });
});

describe("isSafeHref", () => {
  it.each([
    ["https://example.com", true],
    ["http://example.com", true],
    ["mailto:a@b.c", true],
    ["/privacy", true],
    ["/", true],
    ["javascript:alert(1)", false],
    ["//example.com", false],
    ["https://exa mple.com", false],
    ["", false],
  ])("%j → %s", (href, safe) => {
    expect(isSafeHref(href)).toBe(safe);
  });
});
