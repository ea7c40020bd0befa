// Netlify-compatible `_redirects`: parsed once per deployment (a published deployment never
// changes, so the rules can be cached with its manifest), then matched on each request. Pure: no
// I/O. The syntax is Netlify's; where it leaves room, Berth decides as follows (the tests pin each):
// - `#` starts a comment only at the start of a field, so `/a /b#top 301` keeps its fragment.
// - Lines end in LF or CRLF; a lone CR, or any other control character in a field, is an error.
//   Every line counts towards the 2,000-character limit, comment lines included.
// - `*` is only ever the whole last segment of `from`, and `:splat` is not a placeholder name.
// - `from` is compared with the decoded request path, so its literal segments are decoded (and
//   NFC-normalised, as paths.ts does) once here.
// - Matching ignores empty segments and a trailing slash on both sides: `/about` matches
//   `/about/`, and `/docs/*` matches `/docs`, `/docs/` and `/docs/a/b` (`:splat` is "" for the
//   first two). Placeholders and the splat never capture `.` or `..`.
// - 200 and 404 need a path target: Berth serves this deployment's files, it does not proxy.
// - No placeholder may stand in an absolute target's host, so no request can choose the host.
// - `location` is always percent-encoded. For 200 and 404 the edge must send it back through
//   parseRequestPath (paths.ts), which checks it like any request target.
// - A 3xx rule whose target is the request path itself (ignoring query and trailing slash) is
//   skipped: with trailing-slash-insensitive matching, `/about/ /about 301` would loop for ever.

import { formatCount } from "../../common/format";

export interface RedirectRule {
  from: string;
  to: string;
  status: 200 | 301 | 302 | 307 | 308 | 404;
  force: boolean;
  line: number;
}

type Status = RedirectRule["status"];
type Parsed = { ok: true; rules: RedirectRule[] } | { ok: false; error: string };

/** The usual single-page-app fallback: a path with no file serves /index.html. */
export const SPA_RULE = "/*    /index.html    200";

const STATUSES: readonly Status[] = [200, 301, 302, 307, 308, 404];
const MAX_RULES = 2_000;
const MAX_LINE = 2_000;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const TARGET_PLACEHOLDER = /:([A-Za-z_][A-Za-z0-9_]*)/g;
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const CONTROL = /[\u0000-\u001f\u007f]/;
const ABSOLUTE = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;
const CONDITIONS = ["country", "language", "role", "cookie"];

// `from` as segments (a literal, decoded, or a placeholder) and `to` as literal pieces, already
// percent-encoded, between the placeholders to substitute.
type Piece = string | { name: string };
interface Compiled {
  pattern: Piece[];
  splat: boolean;
  target: Piece[];
  absolute: boolean;
}

// Rules are plain data the caller may build by hand (tests, SPA_RULE); their compiled form is
// kept beside them rather than in them. Rules are treated as immutable once matched.
const compiledRules = new WeakMap<RedirectRule, Compiled | null>();

export function parseRedirects(text: string): Parsed {
  const lines = text.replace(/^\uFEFF/, "").split(/\r?\n/);
  const rules: RedirectRule[] = [];
  for (const [index, line] of lines.entries()) {
    const fail = (reason: string): Parsed => ({ ok: false, error: `_redirects line ${index + 1}: ${reason}` });
    if (line.length > MAX_LINE) return fail(`line too long (more than ${formatCount(MAX_LINE)} characters)`);
    const fields = line.split(/[ \t]+/).filter((field) => field !== "");
    const comment = fields.findIndex((field) => field.startsWith("#"));
    if (comment !== -1) fields.splice(comment);
    if (fields.length === 0) continue;
    if (rules.length === MAX_RULES) return fail(`too many rules (more than ${formatCount(MAX_RULES)})`);
    const rule = parseRule(fields, index + 1);
    if (typeof rule === "string") return fail(rule);
    rules.push(rule);
  }
  return { ok: true, rules };
}

function parseRule(fields: string[], line: number): RedirectRule | string {
  if (fields.some((field) => CONTROL.test(field))) return "the line contains a control character";
  const [from, to, statusField, ...extra] = fields as [string, ...string[]];
  if (to === undefined) return 'missing target (expected "from to [status][!]")';
  // Netlify puts query conditions between from and to: `/store id=:id /blog/:id 301`.
  if (to.includes("=") && !to.startsWith("/") && !ABSOLUTE.test(to)) {
    return `query-parameter conditions are not supported ("${to}")`;
  }
  let status: Status = 301;
  let force = false;
  if (statusField !== undefined) {
    if (statusField.includes("=")) return unsupportedField(statusField);
    const digits = statusField.endsWith("!") ? statusField.slice(0, -1) : statusField;
    const code = STATUSES.find((allowed) => String(allowed) === digits);
    if (code === undefined) return `unknown status "${statusField}" (allowed: ${STATUSES.join(", ")}, with an optional !)`;
    status = code;
    force = digits !== statusField;
  }
  if (extra[0] !== undefined) return unsupportedField(extra[0]);
  const compiled = compile(from, to, status);
  if (typeof compiled === "string") return compiled;
  const rule: RedirectRule = { from, to, status, force, line };
  compiledRules.set(rule, compiled);
  return rule;
}

function unsupportedField(field: string): string {
  const equals = field.indexOf("=");
  if (equals !== -1) {
    const key = field.slice(0, equals).toLowerCase();
    return `${CONDITIONS.includes(key) ? `${key} conditions` : "conditions"} are not supported ("${field}")`;
  }
  return `unsupported field "${field}" after the status (only "from to [status][!]" is supported)`;
}

function compile(from: string, to: string, status: Status): Compiled | string {
  if (CONTROL.test(from) || CONTROL.test(to)) return "the rule contains a control character";
  if (ABSOLUTE.test(from)) {
    return `domain-level redirects are not supported: from must be a path starting with /, not a URL ("${from}")`;
  }
  if (!from.startsWith("/")) return `from must start with / ("${from}")`;
  if (/[?#]/.test(from)) return `from cannot contain ? or # (query-parameter conditions are not supported)`;

  const pattern: Piece[] = [];
  const names = new Set<string>();
  let splat = false;
  const segments = from.split("/").filter((segment) => segment !== "");
  for (const [index, segment] of segments.entries()) {
    if (segment.includes("*")) {
      if (segment !== "*" || index !== segments.length - 1) return "* is only supported as the last segment of from (/path/*)";
      splat = true;
    } else if (segment.startsWith(":")) {
      const name = segment.slice(1);
      if (!NAME.test(name)) return `invalid placeholder "${segment}" in from (use :name for a whole segment)`;
      if (name === "splat") return ":splat is the value of *; end from with /* instead";
      if (names.has(name)) return `duplicate placeholder :${name} in from`;
      names.add(name);
      pattern.push({ name });
    } else {
      let literal: string;
      try {
        literal = decodeURIComponent(segment).normalize("NFC");
      } catch {
        return `invalid percent-encoding in from ("${segment}")`;
      }
      // paths.ts refuses these in a request path, so such a rule could never match.
      if (/[/\\]/.test(literal)) return `from cannot contain %2F, %5C or \\ ("${segment}"): the edge refuses such paths`;
      pattern.push(literal);
    }
  }

  // Browsers read "//host" (and "/\host") as another host; "\" is encoded below, "//" refused.
  if (to.startsWith("//")) return "target cannot start with // (a protocol-relative URL points at another host)";
  let absolute = false;
  if (!to.startsWith("/")) {
    const authority = /^https?:\/\/([^/?#]*)/i.exec(to)?.[1];
    if (authority === undefined) return `target must be a path starting with / or an http(s) URL ("${to}")`;
    if (authority.includes("@")) return "target URL cannot contain credentials";
    if (/[*]|:[A-Za-z_]/.test(authority)) return "placeholders cannot be used in the target's host";
    // URL parsers read "\\" as "/" in http(s) URLs, so it would end the host early.
    if (authority === "" || authority.includes("\\") || !URL.canParse(to)) return `invalid target URL ("${to}")`;
    if (status === 200 || status === 404) {
      return `status ${status} needs a path target: proxying to another host is not supported`;
    }
    absolute = true;
  }

  const target: Piece[] = [];
  let last = 0;
  try {
    for (const match of to.matchAll(TARGET_PLACEHOLDER)) {
      const name = match[1]!;
      if (name === "splat" && !splat) return ":splat in the target needs from to end with /*";
      if (name !== "splat" && !names.has(name)) return `unknown placeholder :${name} in target`;
      target.push(escapeUrl(to.slice(last, match.index)), { name });
      last = match.index + match[0].length;
    }
    target.push(escapeUrl(to.slice(last)));
  } catch {
    return "target contains an invalid character";
  }
  return { pattern, splat, target, absolute };
}

// Keeps what is legal in a URL, existing %XX escapes included, and encodes the rest, so a
// Location header never carries raw spaces, non-ASCII or backslashes. Throws on a lone surrogate.
function escapeUrl(text: string): string {
  return text.replace(/%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~!$&'()*+,;=:@/?#%[\]]/gu, (c) => encodeURIComponent(c));
}

export function matchRedirect(
  rules: readonly RedirectRule[],
  path: string,
  options: { fileExists: boolean },
): { location: string; status: RedirectRule["status"] } | undefined {
  if (!path.startsWith("/")) return undefined;
  try {
    encodeURIComponent(path); // a lone surrogate can be neither matched nor encoded
  } catch {
    return undefined;
  }
  const segments = path.split("/").filter((segment) => segment !== "");
  for (const rule of rules) {
    // A file at the path shadows every rule that is not forced with `!`.
    if (options.fileExists && !rule.force) continue;
    const compiled = compiledFor(rule);
    if (!compiled) continue;
    const values = capture(compiled, segments);
    if (!values) continue;
    const location = substitute(compiled, values);
    const redirect = rule.status !== 200 && rule.status !== 404;
    if (redirect && !compiled.absolute && pointsAt(location, segments)) continue;
    return { location, status: rule.status };
  }
  return undefined;
}

function compiledFor(rule: RedirectRule): Compiled | null {
  let compiled = compiledRules.get(rule);
  if (compiled === undefined) {
    const result = STATUSES.includes(rule.status) ? compile(rule.from, rule.to, rule.status) : "bad status";
    compiled = typeof result === "string" ? null : result;
    compiledRules.set(rule, compiled);
  }
  return compiled;
}

const isDots = (segment: string) => segment === "." || segment === "..";

// Values come out percent-encoded one segment at a time: a value can never carry a "/", "?" or
// "#" into the target, whatever the request path held.
function capture(compiled: Compiled, segments: string[]): Map<string, string> | undefined {
  const { pattern, splat } = compiled;
  if (splat ? segments.length < pattern.length : segments.length !== pattern.length) return undefined;
  const values = new Map<string, string>();
  for (const [index, piece] of pattern.entries()) {
    const segment = segments[index]!;
    if (typeof piece === "string") {
      if (segment !== piece) return undefined;
    } else {
      if (isDots(segment)) return undefined;
      values.set(piece.name, encodeURIComponent(segment));
    }
  }
  if (splat) {
    const rest = segments.slice(pattern.length);
    if (rest.some(isDots)) return undefined;
    values.set("splat", rest.map(encodeURIComponent).join("/"));
  }
  return values;
}

function substitute(compiled: Compiled, values: Map<string, string>): string {
  const url = compiled.target.map((piece) => (typeof piece === "string" ? piece : (values.get(piece.name) ?? ""))).join("");
  // An empty value can leave "//" in the path (`/:splat/x` with an empty splat); collapsing runs
  // of "/" keeps a path target a path on this host, never "//x".
  const [, origin = "", path = "", rest = ""] = /^(https?:\/\/[^/?#]*)?([^?#]*)(.*)$/is.exec(url)!;
  return origin + path.replace(/\/{2,}/g, "/") + rest;
}

function pointsAt(location: string, segments: string[]): boolean {
  const path = location.replace(/[?#].*$/s, "");
  try {
    const target = path
      .split("/")
      .filter((segment) => segment !== "")
      .map((s) => decodeURIComponent(s).normalize("NFC"));
    return target.length === segments.length && target.every((segment, index) => segment === segments[index]);
  } catch {
    return false;
  }
}
