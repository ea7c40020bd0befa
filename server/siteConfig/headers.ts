// Netlify-compatible `_headers`: extra response headers per path pattern. Parsed once per
// deployment, then asked on each response. Pure: no I/O. The syntax is Netlify's; where it leaves
// room, Berth decides as follows (the tests pin each):
// - A line is a path when it starts with "/" (after any indentation) and a header otherwise, so
//   indenting header lines is the convention, not a requirement.
// - `#` starts a comment at the start of a line, or after whitespace on a path line. In a header
//   value it is data (`Link: </a.css#x>`).
// - `*` matches any run of characters, "/" included; `:name` is a whole segment and matches one.
//   Empty segments and a trailing slash are ignored on both sides, as in _redirects, and a
//   pattern ending in `/*` also matches the bare directory (`/assets/*` matches `/assets`).
// - Values must be printable ASCII (tabs allowed): Node refuses characters past U+00FF and sends
//   U+0080–U+00FF as Latin-1, which clients misread. An empty value is an error; a path with no
//   header lines is allowed (it is harmless, e.g. every header commented out).
// - The same header from several matching rules (or twice in one) becomes one header whose
//   values are joined with ", " in file order, spelt as it first appeared.
// - Lines over 8,000 characters are refused: response headers that large overflow common proxy
//   buffers (nginx then answers 502).

import { formatCount } from "../../common/format";

export interface HeaderRule {
  pattern: string;
  headers: Array<[string, string]>;
  line: number;
}

type Parsed = { ok: true; rules: HeaderRule[] } | { ok: false; error: string };

const MAX_RULES = 500;
const MAX_LINE = 8_000;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const ABSOLUTE = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

// Headers a site may not set, and why. Besides the framing, a site's headers may act on its own
// origin only: sites share a parent domain with each other (and, if an operator overrides the
// check in env.ts, with the dashboard), so a header whose effect reaches the registrable domain
// would let one site act on its neighbours' visitors. Decided header by header:
// - refused: Set-Cookie and Set-Cookie2 (Domain= reaches every sibling), Clear-Site-Data (its
//   "cookies" and "*" clear the cookies of the whole registrable domain: every neighbour's share
//   and password cookies, and the dashboard's session where it shares the domain), and
//   Strict-Transport-Security with includeSubDomains (checked in parseHeaders: it binds every
//   name under the host for a year, which on an apex custom domain are hosts that need not be
//   this site's, nor even on Berth; without it the header binds the site's own host only).
// - allowed, as they act on the site's own origin: Service-Worker-Allowed (a scope never leaves
//   the origin, and a worker at /sw.js already covers all of it), Origin-Agent-Cluster
//   (document.domain needs both pages to opt in, and Berth's never do), Supports-Loading-Mode
//   (lets others prerender or fence-frame this site's own pages), NEL, Report-To and
//   Reporting-Endpoints (policies of this origin; NEL's include_subdomains adds only DNS failures
//   of names below the host, to the site's own endpoint), Access-Control-*, Cross-Origin-*, Content-Security-Policy,
//   Permissions-Policy and the like (the site's own choice).
const FRAMING = "the server frames the response itself; a site's value would corrupt it";
const FORBIDDEN = new Map<string, string>([
  ["content-length", FRAMING],
  ["transfer-encoding", FRAMING],
  ["connection", FRAMING],
  ["keep-alive", FRAMING],
  ["upgrade", FRAMING],
  ["te", FRAMING],
  ["trailer", FRAMING],
  // These describe the bytes actually sent: Berth serves files as stored, never compressed or
  // partial because a config file says so, and a false claim breaks every client's decoding.
  ["content-encoding", "it must describe the bytes Berth actually sends"],
  ["content-range", "it must describe the bytes Berth actually sends"],
  // Sites share a parent domain: a cookie with Domain= could reach sibling sites or the dashboard.
  ["set-cookie", "sites cannot set cookies through _headers"],
  ["set-cookie2", "sites cannot set cookies through _headers"],
  ["clear-site-data", "it clears cookies of every site under the same parent domain, not only this site's"],
  ["x-content-type-options", "Berth always sends X-Content-Type-Options: nosniff"],
]);

// A compiled pattern is a list of pieces separated by `*`; each piece is literal text (decoded,
// as the request path is) and ANY_SEGMENT placeholders.
const ANY_SEGMENT = Symbol("segment");
type Piece = Array<string | typeof ANY_SEGMENT>;
interface Compiled {
  pieces: Piece[];
  tail: boolean;
}

const compiledRules = new WeakMap<HeaderRule, Compiled | null>();

export function parseHeaders(text: string): Parsed {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  const rules: HeaderRule[] = [];
  let current: HeaderRule | undefined;
  for (const [index, raw] of lines.entries()) {
    const fail = (reason: string): Parsed => ({ ok: false, error: `_headers line ${index + 1}: ${reason}` });
    if (raw.length > MAX_LINE) return fail(`line too long (more than ${formatCount(MAX_LINE)} characters)`);
    const line = raw.replace(/^[ \t]+|[ \t]+$/g, "");
    if (line === "" || line.startsWith("#")) continue;

    if (line.startsWith("/")) {
      const [pattern = "", next] = line.split(/[ \t]+/);
      if (next !== undefined && !next.startsWith("#")) return fail(`a path line holds one pattern ("${next}" follows it)`);
      if (rules.length === MAX_RULES) return fail(`too many path rules (more than ${MAX_RULES})`);
      const compiled = compilePattern(pattern);
      if (typeof compiled === "string") return fail(compiled);
      current = { pattern, headers: [], line: index + 1 };
      compiledRules.set(current, compiled);
      rules.push(current);
      continue;
    }

    if (ABSOLUTE.test(line)) return fail("a path must start with / (absolute URLs are not supported)");
    const colon = line.indexOf(":");
    if (colon === -1) {
      const bad = badCharacter(line);
      return fail(bad ? `the line contains ${bad}` : 'expected a path starting with / or a "Name: value" header line');
    }
    if (!current) return fail("header line before any path (start with a path such as /*)");
    const name = line.slice(0, colon).replace(/[ \t]+$/, "");
    const value = line.slice(colon + 1).replace(/^[ \t]+/, "");
    if (!TOKEN.test(name)) return fail(`invalid header name "${name}"`);
    const forbidden = FORBIDDEN.get(name.toLowerCase());
    if (forbidden) return fail(`${name} cannot be set: ${forbidden}`);
    if (name.toLowerCase() === "strict-transport-security" && hasDirective(value, "includesubdomains")) {
      return fail(`${name} cannot use includeSubDomains: it would force HTTPS on every host under this one, which need not be this site's`);
    }
    const bad = badCharacter(value);
    if (bad) return fail(`the value of ${name} contains ${bad}`);
    if (value === "") return fail(`empty value for ${name}`);
    current.headers.push([name, value]);
  }
  return { ok: true, rules };
}

/** Whether a `;`-separated directive list (RFC 6797's form) holds `directive`, in any case. */
function hasDirective(value: string, directive: string): boolean {
  return value.split(";").some((part) => part.trim().replace(/^"|"$/g, "").toLowerCase() === directive);
}

function badCharacter(text: string): string | undefined {
  const found = /[^\t\x20-\x7e]/u.exec(text)?.[0];
  if (found === undefined) return undefined;
  const names: Record<string, string> = { "\0": "NUL", "\r": "CR", "\n": "LF" };
  const code = found.codePointAt(0)!;
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
  return names[found] ?? (code < 0x20 || code === 0x7f ? `a control character (${hex})` : `a non-ASCII character (${hex})`);
}

function compilePattern(pattern: string): Compiled | string {
  if (/[?#]/.test(pattern)) return "a path pattern cannot contain ? or # (query strings are not matched)";
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\u0000-\u001f\u007f]/.test(pattern)) return "the path contains a control character";
  const pieces: Piece[] = [[]];
  const append = (text: string) => {
    const piece = pieces.at(-1)!;
    const last = piece.at(-1);
    if (typeof last === "string") piece[piece.length - 1] = last + text;
    else if (text !== "") piece.push(text);
  };
  const segments = pattern.split("/").filter((segment) => segment !== "");
  if (segments.length === 0) append("/");
  for (const segment of segments) {
    append("/");
    if (segment.startsWith(":")) {
      if (!NAME.test(segment.slice(1))) return `invalid placeholder "${segment}" (use :name for a whole segment)`;
      pieces.at(-1)!.push(ANY_SEGMENT);
      continue;
    }
    for (const [index, literal] of segment.split("*").entries()) {
      if (index > 0) pieces.push([]);
      let decoded: string;
      try {
        decoded = decodeURIComponent(literal).normalize("NFC");
      } catch {
        return `invalid percent-encoding in the path ("${segment}")`;
      }
      // paths.ts refuses these in a request path, so such a pattern could never match.
      if (/[/\\]/.test(decoded)) return `a path cannot contain %2F, %5C or \\ ("${segment}"): the edge refuses such paths`;
      append(decoded);
    }
  }
  return { pieces, tail: segments.at(-1) === "*" };
}

export function headersFor(rules: readonly HeaderRule[], path: string): Array<[string, string]> {
  if (!path.startsWith("/")) return [];
  const normal = `/${path
    .split("/")
    .filter((segment) => segment !== "")
    .join("/")}`;
  const merged = new Map<string, [string, string]>();
  for (const rule of rules) {
    const compiled = compiledFor(rule);
    if (!compiled) continue;
    if (!matches(compiled, normal) && !(compiled.tail && matches(compiled, `${normal}/`))) continue;
    for (const [name, value] of rule.headers) {
      const seen = merged.get(name.toLowerCase());
      if (seen) seen[1] = `${seen[1]}, ${value}`;
      else merged.set(name.toLowerCase(), [name, value]);
    }
  }
  return [...merged.values()];
}

function compiledFor(rule: HeaderRule): Compiled | null {
  let compiled = compiledRules.get(rule);
  if (compiled === undefined) {
    const result = compilePattern(rule.pattern);
    compiled = typeof result === "string" ? null : result;
    compiledRules.set(rule, compiled);
  }
  return compiled;
}

// No regular expressions: a site owner writes the patterns and anyone writes the paths, and a
// pattern like `/*a*a*a*b` compiled to a backtracking regex takes exponential time. Here the
// first piece is anchored at the start, each middle piece takes its leftmost match (which is
// optimal: a piece that starts earlier never ends later), and the last piece must end at the end.
function matches(compiled: Compiled, path: string): boolean {
  const [first = [], ...rest] = compiled.pieces;
  let position = matchAt(first, path, 0);
  if (position === -1) return false;
  if (rest.length === 0) return position === path.length;
  const last = rest.pop()!;
  for (const piece of rest) {
    position = find(piece, path, position, false);
    if (position === -1) return false;
  }
  return find(last, path, position, true) !== -1;
}

function find(piece: Piece, path: string, from: number, toEnd: boolean): number {
  if (piece.length === 0) return toEnd ? path.length : from;
  const head = piece[0];
  for (let start = from; start <= path.length; start++) {
    if (typeof head === "string") {
      start = path.indexOf(head, start);
      if (start === -1) return -1;
    }
    const end = matchAt(piece, path, start);
    if (end !== -1 && (!toEnd || end === path.length)) return end;
  }
  return -1;
}

// Where the piece ends when it starts at `start`, or -1. A placeholder is a whole segment, so it
// takes everything up to the next "/": there is nothing to choose and nothing to backtrack.
function matchAt(piece: Piece, path: string, start: number): number {
  let position = start;
  for (const token of piece) {
    if (token === ANY_SEGMENT) {
      const slash = path.indexOf("/", position);
      const end = slash === -1 ? path.length : slash;
      if (end === position) return -1;
      position = end;
    } else {
      if (!path.startsWith(token, position)) return -1;
      position += token.length;
    }
  }
  return position;
}
