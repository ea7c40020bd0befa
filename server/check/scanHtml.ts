// Finds the references in an HTML document in one linear pass, without building a tree: tags and
// their attributes are read as a browser's tokenizer reads them (comments, raw-text elements,
// quoted and unquoted values), enough to know which attribute loads what. Uploaded pages are
// hostile input: nesting costs nothing here, a tag's attributes are kept only when they matter
// (the first of each name, as browsers use), and every search moves forward.
import { find } from "./find";
import { scanCss } from "./scanCss";

/** How the page uses what a reference names, which decides what counts as broken. */
export type RefUse =
  /** Loaded into the page (script, style, image, media, frame): a blocked or missing one breaks it. */
  | "resource"
  /** Followed by a visitor (a link): any page the site answers with is fine. */
  | "link";

export interface HtmlRef {
  value: string;
  line: number;
  use: RefUse;
  /** A frame: a page loaded into the page, so a fallback page answers it as a link's target would. */
  frame?: boolean;
}

export interface HtmlScan {
  /** The first `<base href>`, which every relative reference after it resolves against. */
  base: string | null;
}

// Attributes that matter, by element. "srcset" lists candidates; "style" holds CSS.
const RESOURCE_SRC = new Set(["img", "script", "iframe", "frame", "embed", "video", "audio", "source", "track", "input"]);
const FRAMES = new Set(["iframe", "frame"]);
const KEPT = new Set(["href", "src", "srcset", "style", "rel", "poster", "data"]);
// Link relations whose target the page loads; other relations (canonical, alternate…) are links.
const LOADED_RELS = /(?:^|\s)(?:stylesheet|icon|preload|modulepreload|manifest|apple-touch-icon|mask-icon|prefetch)(?:\s|$)/i;
const RAW_TEXT = new Set(["script", "style", "textarea", "title", "xmp", "noembed", "noframes"]);
/** Longer values are not paths anyone wrote by hand; they are skipped unread. */
// (Attribute names that matter are 3 to 6 characters long; others are never sliced out.)
const MAX_VALUE = 4096;

const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13 || c === 12;
const isAlpha = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

/** Line numbers for positions asked in increasing order: each character is counted once. */
export class LineCounter {
  private pos = 0;
  private line = 1;
  constructor(private readonly text: string) {}
  at(pos: number): number {
    const { text } = this;
    let i = this.pos;
    let line = this.line;
    for (; i < pos; i++) if (text.charCodeAt(i) === 10) line++;
    if (pos > this.pos) {
      this.pos = pos;
      this.line = line;
    }
    return line;
  }
}

function newlinesIn(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}

/** The end of a raw-text element's content: the index of its `</name`, or the text's end. */
function rawTextEnd(text: string, from: number, name: string): number {
  let i = from;
  for (;;) {
    const close = find(text, "</", i);
    if (close === -1) return text.length;
    if (text.slice(close + 2, close + 2 + name.length).toLowerCase() === name) return close;
    i = close + 2;
  }
}

interface Attr {
  value: string;
  pos: number;
  line: number;
}

/** Calls `emit` for each reference of the document, in document order. */
export function scanHtml(text: string, emit: (ref: HtmlRef) => void): HtmlScan {
  const lines = new LineCounter(text);
  const result: HtmlScan = { base: null };
  const n = text.length;
  let i = 0;
  while (i < n) {
    const lt = find(text, "<", i);
    if (lt === -1) break;
    const c = text.charCodeAt(lt + 1);
    if (c === 33 /* ! */) {
      if (text.startsWith("<!--", lt)) {
        const close = find(text, "-->", lt + 4);
        i = close === -1 ? n : close + 3;
      } else {
        const close = find(text, ">", lt + 2);
        i = close === -1 ? n : close + 1;
      }
      continue;
    }
    if (c === 63 /* ? */ || c === 47 /* / */) {
      const close = find(text, ">", lt + 2);
      i = close === -1 ? n : close + 1;
      continue;
    }
    if (!isAlpha(c)) {
      i = lt + 1;
      continue;
    }
    // A start tag: its name, then attributes until ">".
    let j = lt + 1;
    while (j < n && !isSpace(text.charCodeAt(j)) && text.charCodeAt(j) !== 62 && text.charCodeAt(j) !== 47) j++;
    const name = text.slice(lt + 1, Math.min(j, lt + 33)).toLowerCase();
    // Made only for a tag with an attribute that matters: most tags have none.
    let attrs: Map<string, Attr> | null = null;
    while (j < n) {
      let ch = text.charCodeAt(j);
      if (isSpace(ch) || ch === 47) {
        j++;
        continue;
      }
      if (ch === 62) break;
      const nameStart = j;
      while (j < n && !isSpace((ch = text.charCodeAt(j))) && ch !== 61 && ch !== 62 && ch !== 47) j++;
      const length = j - nameStart;
      const attrName = length >= 3 && length <= 6 ? text.slice(nameStart, j).toLowerCase() : "";
      let k = j;
      while (k < n && isSpace(text.charCodeAt(k))) k++;
      if (text.charCodeAt(k) !== 61 /* = */) {
        // No value; a name-only attribute.
        if (attrName === "" || !KEPT.has(attrName)) continue;
        attrs ??= new Map();
        if (!attrs.has(attrName)) attrs.set(attrName, { value: "", pos: nameStart, line: lines.at(nameStart) });
        continue;
      }
      k++;
      while (k < n && isSpace(text.charCodeAt(k))) k++;
      const q = text.charCodeAt(k);
      let valueStart: number;
      let valueEnd: number;
      if (q === 34 || q === 39) {
        valueStart = k + 1;
        const close = find(text, q === 34 ? '"' : "'", valueStart);
        valueEnd = close === -1 ? n : close;
        j = valueEnd + 1;
      } else {
        valueStart = k;
        while (k < n && !isSpace(text.charCodeAt(k)) && text.charCodeAt(k) !== 62) k++;
        valueEnd = k;
        j = k;
      }
      if (attrName !== "" && KEPT.has(attrName) && !attrs?.has(attrName) && valueEnd - valueStart <= MAX_VALUE) {
        attrs ??= new Map();
        attrs.set(attrName, { value: text.slice(valueStart, valueEnd), pos: valueStart, line: lines.at(valueStart) });
      }
    }
    i = j + 1;
    if (attrs) emitTag(name, attrs, emit, result);
    if (RAW_TEXT.has(name)) {
      const end = rawTextEnd(text, i, name);
      if (name === "style") {
        const startLine = lines.at(i);
        const local = new LineCounter(text.slice(i, end));
        scanCss(text.slice(i, end), (ref) => emit({ value: ref.value, line: startLine + local.at(ref.pos) - 1, use: "resource" }));
      }
      i = end;
    }
  }
  return result;
}

function emitTag(name: string, attrs: Map<string, Attr>, emit: (ref: HtmlRef) => void, result: HtmlScan): void {
  // Attribute order in the source decides the order of findings; a tag has at most a handful.
  const found: Array<{ pos: number; ref: HtmlRef }> = [];
  const href = attrs.get("href");
  if (href) {
    if (name === "base") {
      if (result.base === null) result.base = href.value;
    } else if (name === "a" || name === "area") {
      found.push({ pos: href.pos, ref: { value: href.value, line: href.line, use: "link" } });
    } else if (name === "link") {
      const rel = attrs.get("rel")?.value ?? "";
      found.push({ pos: href.pos, ref: { value: href.value, line: href.line, use: LOADED_RELS.test(rel) ? "resource" : "link" } });
    }
  }
  const src = attrs.get("src");
  if (src && RESOURCE_SRC.has(name))
    found.push({ pos: src.pos, ref: { value: src.value, line: src.line, use: "resource", frame: FRAMES.has(name) } });
  const poster = attrs.get("poster");
  if (poster && name === "video") found.push({ pos: poster.pos, ref: { value: poster.value, line: poster.line, use: "resource" } });
  const data = attrs.get("data");
  if (data && name === "object") found.push({ pos: data.pos, ref: { value: data.value, line: data.line, use: "resource" } });
  const srcset = attrs.get("srcset");
  if (srcset && (name === "img" || name === "source")) {
    for (const candidate of srcsetUrls(srcset.value)) {
      const line = srcset.line + newlinesIn(srcset.value, 0, candidate.pos);
      found.push({ pos: srcset.pos + candidate.pos, ref: { value: candidate.url, line, use: "resource" } });
    }
  }
  const style = attrs.get("style");
  if (style) {
    scanCss(style.value, (ref) =>
      found.push({ pos: style.pos + ref.pos, ref: { value: ref.value, line: style.line + newlinesIn(style.value, 0, ref.pos), use: "resource" } }),
    );
  }
  if (found.length > 1) found.sort((a, b) => a.pos - b.pos);
  for (const f of found) emit(f.ref);
}

/** The URLs of a srcset, as the HTML standard splits it: a URL, then descriptors up to a comma. */
export function srcsetUrls(value: string): Array<{ url: string; pos: number }> {
  const urls: Array<{ url: string; pos: number }> = [];
  const n = value.length;
  let i = 0;
  while (i < n) {
    while (i < n && (isSpace(value.charCodeAt(i)) || value.charCodeAt(i) === 44)) i++;
    if (i >= n) break;
    const start = i;
    while (i < n && !isSpace(value.charCodeAt(i))) i++;
    let url = value.slice(start, i);
    let trailingCommas = false;
    while (url.endsWith(",")) {
      url = url.slice(0, -1);
      trailingCommas = true;
    }
    if (url !== "") urls.push({ url, pos: start });
    if (trailingCommas) continue;
    // Descriptors ("2x", "300w") up to the next comma outside parentheses.
    let depth = 0;
    while (i < n) {
      const c = value.charCodeAt(i);
      if (c === 40) depth++;
      else if (c === 41 && depth > 0) depth--;
      else if (c === 44 && depth === 0) break;
      i++;
    }
  }
  return urls;
}
