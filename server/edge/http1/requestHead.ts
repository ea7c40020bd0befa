// Reads the head of one HTTP/1.1 request, for the edge's fast path. It accepts only the plain
// case that nearly all traffic to a site is: GET or HEAD, origin-form target, no body, strictly
// formed header lines. Anything else is "unsupported", and the connection goes to node:http,
// whose parser handles (or refuses) it. Being strict here costs nothing but a hand-over, so
// every doubt resolves to "unsupported": never guess at framing.

export interface RequestHead {
  method: "GET" | "HEAD";
  /** The request target as sent: path and query. */
  url: string;
  host: string;
  /** The header fields the edge reads; repeated list fields are joined with ", ". */
  headers: {
    "accept-encoding"?: string;
    "if-none-match"?: string;
    "if-modified-since"?: string;
    /** Several Cookie fields are joined with "; " (RFC 9113 §8.2.3 and node:http do the same). */
    cookie?: string;
    /** For the access log of share links and analytics; the first one counts, as in node:http. */
    "user-agent"?: string;
    /** For analytics; the first one counts, as in node:http. */
    referer?: string;
    /** For analytics behind a trusted proxy; repeated fields are joined with ", ". */
    "x-forwarded-for"?: string;
  };
  /** A Range field was sent: the fast path leaves ranges to node:http. */
  range: boolean;
  keepAlive: boolean;
  /** Bytes of the head, the blank line included. */
  length: number;
}

export type HeadResult = RequestHead | "incomplete" | "unsupported";

/** Node's default limit too: a longer head goes to node:http, which answers 431. */
export const MAX_HEAD_BYTES = 16 * 1024;
const MAX_FIELDS = 100;

const HEAD_END = Buffer.from("\r\n\r\n");
/** Input up to this size is turned into text at once, and the head's end looked for in that. */
const SCAN_BYTES = 2048;
// Lines of HTAB, visible ASCII and space only, each ended by CRLF: CR and LF nowhere else.
// obs-text (bytes ≥ 0x80) and other controls are legal in places but rare: node:http takes
// those. One pass, and no backtracking (a line's characters cannot match CR). Checking the bytes
// in a loop of our own was slower.
const PLAIN_LINES = /^(?:[\t\x20-\x7e]*\r\n)*[\t\x20-\x7e]*$/;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * A LF without its CR, or a CR followed by anything but LF. A head ended by bare LFs never shows
 * the CRLFCRLF waited for, so the connection would hang until the headers timeout; node:http
 * answers it at once (400).
 */
function hasLoneLineBreak(buffer: Buffer): boolean {
  for (let i = buffer.indexOf(0x0a); i !== -1; i = buffer.indexOf(0x0a, i + 1)) if (i === 0 || buffer[i - 1] !== 0x0d) return true;
  for (let i = buffer.indexOf(0x0d); i !== -1 && i + 1 < buffer.length; i = buffer.indexOf(0x0d, i + 1)) if (buffer[i + 1] !== 0x0a) return true;
  return false;
}

export function parseRequestHead(buffer: Buffer): HeadResult {
  // Nearly always the input is one request of a few hundred bytes: one conversion to text, then
  // a search in the string, cheaper than a search in the buffer (a call into C++) and then a
  // conversion. Larger input (pipelined requests) is searched first, so that no request pays for
  // converting the ones queued behind it.
  let end: number;
  let text: string;
  if (buffer.length <= SCAN_BYTES) {
    text = buffer.toString("latin1");
    end = text.indexOf("\r\n\r\n");
  } else {
    end = buffer.indexOf(HEAD_END);
    text = end === -1 ? "" : buffer.toString("latin1", 0, end);
  }
  if (end === -1) return buffer.length > MAX_HEAD_BYTES || hasLoneLineBreak(buffer) ? "unsupported" : "incomplete";
  const length = end + HEAD_END.length;
  if (length > MAX_HEAD_BYTES) return "unsupported";
  if (text.length !== end) text = text.slice(0, end);
  if (!PLAIN_LINES.test(text)) return "unsupported";

  let lineEnd = text.indexOf("\r\n");
  if (lineEnd === -1) lineEnd = text.length;
  const method = text.startsWith("GET /") ? "GET" : text.startsWith("HEAD /") ? "HEAD" : undefined;
  if (method === undefined) return "unsupported";
  const urlStart = method.length + 1;
  const space = text.indexOf(" ", urlStart);
  if (space === -1 || space > lineEnd) return "unsupported";
  const url = text.slice(urlStart, space);
  if (url.includes("\t")) return "unsupported";
  // "HTTP/1.1" or "HTTP/1.0", compared in place.
  if (lineEnd - space !== 9 || !text.startsWith("HTTP/1.", space + 1)) return "unsupported";
  const minor = text.charCodeAt(lineEnd - 1);
  if (minor !== 0x31 && minor !== 0x30) return "unsupported";

  let host: string | undefined;
  let connection = "";
  let range = false;
  let sawLength = false;
  const headers: RequestHead["headers"] = {};
  let fields = 0;
  for (let at = lineEnd + 2; at < text.length;) {
    let next = text.indexOf("\r\n", at);
    if (next === -1) next = text.length;
    const colon = text.indexOf(":", at);
    if (colon === -1 || colon > next || ++fields > MAX_FIELDS) return "unsupported";
    const name = text.slice(at, colon);
    // Only SP and HTAB can be at the ends: PLAIN_LINES left no other whitespace.
    const value = text.slice(colon + 1, next).trim();
    at = next + 2;
    // Lower-casing keeps every character that is not a letter, so a name that matches one of
    // the cases below is a token; any other is checked in `default`.
    switch (name.toLowerCase()) {
      case "host":
        if (host !== undefined) return "unsupported";
        host = value;
        break;
      case "connection":
        connection = connection ? `${connection},${value}` : value;
        break;
      case "content-length":
        // A body, or two lengths: framing that node:http must decide.
        if (sawLength || value !== "0") return "unsupported";
        sawLength = true;
        break;
      case "transfer-encoding":
      case "expect":
      case "upgrade":
        return "unsupported";
      case "range":
        range = true;
        break;
      case "accept-encoding":
        headers["accept-encoding"] = headers["accept-encoding"] === undefined ? value : `${headers["accept-encoding"]}, ${value}`;
        break;
      case "if-none-match":
        headers["if-none-match"] = headers["if-none-match"] === undefined ? value : `${headers["if-none-match"]}, ${value}`;
        break;
      case "cookie":
        headers.cookie = headers.cookie === undefined ? value : `${headers.cookie}; ${value}`;
        break;
      case "if-modified-since":
        // A single-value field: the first one counts, as in node:http.
        headers["if-modified-since"] ??= value;
        break;
      case "user-agent":
        headers["user-agent"] ??= value;
        break;
      case "referer":
        headers.referer ??= value;
        break;
      case "x-forwarded-for":
        headers["x-forwarded-for"] = headers["x-forwarded-for"] === undefined ? value : `${headers["x-forwarded-for"]}, ${value}`;
        break;
      default:
        // Also refuses obs-fold (a line starting with a space) and a space before the colon.
        if (!TOKEN.test(name)) return "unsupported";
    }
  }
  if (host === undefined) return "unsupported";
  const keepAlive = minor === 0x31 ? !hasToken(connection, "close") : hasToken(connection, "keep-alive");
  return { method, url, host, headers, range, keepAlive, length };
}

/** Whether a comma-separated field holds `token` (case-insensitive). */
function hasToken(field: string, token: string): boolean {
  if (field === "") return false;
  return field.split(",").some((item) => item.trim().toLowerCase() === token);
}
