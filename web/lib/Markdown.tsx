// A small Markdown renderer for the operator's terms and privacy documents. It builds React
// elements directly (never HTML strings), so nothing in the source can inject markup or script.
// Supported: # to ### headings, paragraphs, - / * / + bullet lists, 1. numbered lists, ---
// rules, **bold**, *italic* / _italic_, `code`, [links](url) and backslash escapes. Links are kept
// only for http(s), mailto and same-site paths; any other link renders as its plain text.
import { Fragment, type ReactElement, type ReactNode } from "react";

export interface MarkdownLinkProps {
  href: string;
  children: ReactNode;
}

export interface MarkdownOptions {
  /** Renders a safe link; lets the caller route same-site paths through the router. */
  renderLink?: (props: MarkdownLinkProps) => ReactNode;
}

/** True for hrefs a document may link to: http(s), mailto, or a path on this site ("/…" but not "//…"). */
export function isSafeHref(href: string): boolean {
  if (/^https?:\/\/[^\s]+$/i.test(href)) return true;
  if (/^mailto:[^\s]+$/i.test(href)) return true;
  // "//host" and "/\host" are read by browsers as another host, so they are not same-site paths.
  return /^\/(?![/\\])[^\s]*$/.test(href);
}

const ESCAPABLE = new Set("\\`*_[]()#+-.!>~|{}".split(""));

type Block =
  | { kind: "heading"; level: 1 | 2 | 3; text: string }
  | { kind: "paragraph"; text: string }
  | { kind: "list"; ordered: boolean; start: number; items: string[] }
  | { kind: "rule" };

const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const BULLET = /^ {0,3}[-*+][ \t]+(.*)$/;
const NUMBERED = /^ {0,3}(\d{1,9})[.)][ \t]+(.*)$/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;

type ListBlock = Extract<Block, { kind: "list" }>;

function parseBlocks(source: string): Block[] {
  const blocks: Block[] = [];
  // Held in an object so that TypeScript does not narrow them across the flush() calls.
  const open: { paragraph: string[]; list: ListBlock | null } = { paragraph: [], list: null };

  const flush = () => {
    if (open.paragraph.length) blocks.push({ kind: "paragraph", text: open.paragraph.join(" ") });
    if (open.list) blocks.push(open.list);
    open.paragraph = [];
    open.list = null;
  };

  for (const raw of source.replace(/\r\n?/g, "\n").split("\n")) {
    const line = raw.replace(/\t/g, "    ");
    if (!line.trim()) {
      flush();
      continue;
    }
    if (RULE.test(line)) {
      flush();
      blocks.push({ kind: "rule" });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      flush();
      const level = Math.min(heading[1]!.length, 3) as 1 | 2 | 3;
      blocks.push({ kind: "heading", level, text: heading[2] ?? "" });
      continue;
    }
    const bullet = BULLET.exec(line);
    const numbered = bullet ? null : NUMBERED.exec(line);
    if (bullet || numbered) {
      const ordered = numbered !== null;
      const text = (bullet ? bullet[1] : numbered?.[2]) ?? "";
      if (open.list && open.list.ordered === ordered && !open.paragraph.length) {
        open.list.items.push(text);
      } else {
        flush();
        open.list = { kind: "list", ordered, start: numbered ? Number(numbered[1]) : 1, items: [text] };
      }
      continue;
    }
    if (open.list) {
      // A line that is not a new item continues the last one, as in CommonMark.
      const items = open.list.items;
      items[items.length - 1] = `${items[items.length - 1]} ${line.trim()}`;
      continue;
    }
    open.paragraph.push(line.trim());
  }
  flush();
  return blocks;
}

/** Finds the closing delimiter of an emphasis run that starts at `from`, or -1. */
function findClosing(text: string, delimiter: string, from: number): number {
  for (let i = from; i <= text.length - delimiter.length; i++) {
    if (text[i] === "\\") {
      i++;
      continue;
    }
    if (text[i] === "`") {
      const end = text.indexOf("`", i + 1);
      if (end !== -1) i = end;
      continue;
    }
    if (!text.startsWith(delimiter, i) || /\s/.test(text[i - 1] ?? " ")) continue;
    // A single * or _ must not be half of a ** or __ run.
    if (delimiter.length === 1 && text[i + 1] === delimiter) {
      i++;
      continue;
    }
    if (delimiter === "_" && /[\p{L}\p{N}]/u.test(text[i + 1] ?? "")) continue;
    return i;
  }
  return -1;
}

/** Reads "[text](url)" at `start`; returns the parts and the index after it, or null. */
function readLink(text: string, start: number): { label: string; href: string; end: number } | null {
  let depth = 0;
  let close = -1;
  for (let i = start; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (text[i] === "[") depth++;
    else if (text[i] === "]" && --depth === 0) {
      close = i;
      break;
    }
  }
  if (close === -1 || text[close + 1] !== "(") return null;
  let parens = 0;
  for (let i = close + 1; i < text.length; i++) {
    if (text[i] === "(") parens++;
    else if (text[i] === ")" && --parens === 0) {
      const target = text.slice(close + 2, i).trim();
      // An optional "title" after the URL is accepted and dropped.
      const href = target.replace(/\s+("[^"]*"|'[^']*')$/, "").replace(/^<(.*)>$/, "$1");
      return { label: text.slice(start + 1, close), href, end: i + 1 };
    }
  }
  return null;
}

function parseInline(text: string, options: MarkdownOptions, key: string): ReactNode[] {
  const nodes: ReactNode[] = [];
  let buffer = "";
  const push = (node: ReactNode) => {
    if (buffer) nodes.push(buffer);
    buffer = "";
    nodes.push(node);
  };
  const nextKey = () => `${key}.${nodes.length}`;

  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === "\\" && ESCAPABLE.has(text[i + 1] ?? "")) {
      buffer += text[i + 1];
      i += 2;
      continue;
    }
    if (ch === "`") {
      const end = text.indexOf("`", i + 1);
      if (end > i + 1) {
        push(<code key={nextKey()}>{text.slice(i + 1, end)}</code>);
        i = end + 1;
        continue;
      }
    }
    const strong = text.startsWith("**", i) || text.startsWith("__", i) ? text.slice(i, i + 2) : null;
    if (strong && !/\s/.test(text[i + 2] ?? " ")) {
      const end = findClosing(text, strong, i + 2);
      if (end !== -1) {
        const k = nextKey();
        push(<strong key={k}>{parseInline(text.slice(i + 2, end), options, k)}</strong>);
        i = end + 2;
        continue;
      }
    }
    const intraword = ch === "_" && /[\p{L}\p{N}]/u.test(text[i - 1] ?? "");
    if ((ch === "*" || ch === "_") && !strong && !intraword && !/\s/.test(text[i + 1] ?? " ")) {
      const end = findClosing(text, ch, i + 1);
      if (end !== -1) {
        const k = nextKey();
        push(<em key={k}>{parseInline(text.slice(i + 1, end), options, k)}</em>);
        i = end + 1;
        continue;
      }
    }
    if (ch === "[") {
      const link = readLink(text, i);
      if (link) {
        const k = nextKey();
        const label = parseInline(link.label, options, k);
        if (isSafeHref(link.href)) {
          const props = { href: link.href, children: label };
          push(<Fragment key={k}>{options.renderLink ? options.renderLink(props) : <a {...props} />}</Fragment>);
        } else {
          push(<Fragment key={k}>{label}</Fragment>);
        }
        i = link.end;
        continue;
      }
    }
    buffer += ch;
    i++;
  }
  if (buffer) nodes.push(buffer);
  return nodes;
}

export function renderMarkdown(source: string, options: MarkdownOptions = {}): ReactElement[] {
  return parseBlocks(source).map((block, index) => {
    const key = String(index);
    switch (block.kind) {
      case "heading": {
        const Tag = `h${block.level}` as const;
        return <Tag key={key}>{parseInline(block.text, options, key)}</Tag>;
      }
      case "paragraph":
        return <p key={key}>{parseInline(block.text, options, key)}</p>;
      case "rule":
        return <hr key={key} />;
      case "list": {
        const items = block.items.map((item, n) => <li key={n}>{parseInline(item, options, `${key}.${n}`)}</li>);
        return block.ordered ? (
          <ol key={key} start={block.start === 1 ? undefined : block.start}>
            {items}
          </ol>
        ) : (
          <ul key={key}>{items}</ul>
        );
      }
    }
  });
}

/** Renders Markdown as React elements; style it from the outside (see MarkdownArticle). */
export function Markdown({ source, ...options }: { source: string } & MarkdownOptions) {
  return <>{renderMarkdown(source, options)}</>;
}
