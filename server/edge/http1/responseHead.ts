// Writes the head of a response as text. The edge reuses header objects across requests (one
// per prepared file and encoding), so each object's lines are worked out once and remembered.
import { STATUS_CODES, type OutgoingHttpHeaders } from "node:http";

const statusLines = new Map<number, string>();
const linesOf = new WeakMap<OutgoingHttpHeaders, string>();
// A value with CR, LF or NUL would let one response smuggle another; values are checked at
// publish (_headers, _redirects), and this is the last line of defence.
const UNSAFE_VALUE = /[\r\n\0]/;

let dateSecond = -1;
let dateLine = "";

// Whole answers (head and body in one buffer) built during the current second, by header object.
// Within a second only the Date field could change, and it does not: so a hot small file costs
// one write of a ready buffer, not a copy or a writev. Emptied every second, and bounded.
// Up to 64 KB a single write() of a ready buffer measurably beats writev() of head and body
// (gzip case of bench:edge, a 28 KB brotli body: +8 % req/s); bigger ones cost their bytes anyway.
/** Bodies up to this size are worth a ready-made answer. */
export const WHOLE_MAX_BODY = 64 * 1024;
const WHOLE_MAX_ENTRIES = 1000;
/** What the ready answers of one second may hold in all. */
const WHOLE_MAX_BYTES = 16 * 1024 * 1024;
let wholeBytes = 0;
const whole = new Map<OutgoingHttpHeaders, { status: number; body: Buffer; end: string; bytes: Buffer }>();

function statusLine(status: number): string {
  let line = statusLines.get(status);
  if (line === undefined) {
    line = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? "Unknown"}\r\n`;
    statusLines.set(status, line);
  }
  return line;
}

/** `name: value\r\n` for each field; an array value gives one line per item. */
export function headerLines(headers: OutgoingHttpHeaders): string {
  let lines = linesOf.get(headers);
  if (lines !== undefined) return lines;
  lines = "";
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) {
      const text = String(item);
      if (UNSAFE_VALUE.test(text) || UNSAFE_VALUE.test(name)) throw new Error(`unsafe response header ${JSON.stringify(name)}`);
      lines += `${name}: ${text}\r\n`;
    }
  }
  linesOf.set(headers, lines);
  return lines;
}

/** The Date field (RFC 9110 §6.6.1), worked out once a second. */
function currentDateLine(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    dateLine = `date: ${new Date(now).toUTCString()}\r\n`;
    whole.clear();
    wholeBytes = 0;
  }
  return dateLine;
}

/** The connection-management lines and the blank line that ends a head. */
export function headEnd(keepAliveSeconds: number | undefined): string {
  return keepAliveSeconds === undefined ? "connection: close\r\n\r\n" : `connection: keep-alive\r\nkeep-alive: timeout=${keepAliveSeconds}\r\n\r\n`;
}

/** The whole head: status line, fields, Date, then `end` (see headEnd). */
export function responseHead(status: number, headers: OutgoingHttpHeaders, end: string): string {
  return statusLine(status) + headerLines(headers) + currentDateLine() + end;
}

/** Head and body in one buffer, reused within the second (see `whole`). For small bodies only. */
export function wholeResponse(status: number, headers: OutgoingHttpHeaders, body: Buffer, end: string): Buffer {
  currentDateLine(); // empties `whole` when a new second has begun
  const ready = whole.get(headers);
  if (ready !== undefined && ready.body === body && ready.status === status && ready.end === end) return ready.bytes;
  const text = responseHead(status, headers, end);
  const bytes = Buffer.allocUnsafeSlow(text.length + body.length);
  bytes.write(text, 0, "latin1");
  body.copy(bytes, text.length);
  if (whole.size < WHOLE_MAX_ENTRIES && wholeBytes + bytes.length <= WHOLE_MAX_BYTES) {
    whole.set(headers, { status, body, end, bytes });
    wholeBytes += bytes.length;
  }
  return bytes;
}
