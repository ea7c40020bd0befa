// Byte ranges (RFC 9110 §14): parsing Range, evaluating If-Range, and the framing of a
// multipart/byteranges body whose parts the caller streams from the blob.
import { randomBytes } from "node:crypto";
import { parseHttpDate, wholeSeconds } from "../http/conditional";
import { isOws, skipOws } from "../http/syntax";

export type RangeResult =
  | { kind: "full" }
  | { kind: "single"; start: number; end: number }
  | { kind: "multi"; ranges: Array<{ start: number; end: number }> }
  | { kind: "unsatisfiable" };

/**
 * More range-specs than this and the Range field is ignored (a 200 with the whole file).
 * §14.2 lets a server ignore Range; many tiny or overlapping ranges are the signature of a
 * denial-of-service attempt, and the cap also bounds the work done per header. 16 is far more
 * than any real client (PDF viewers, media players) sends at once.
 */
export const MAX_RANGES = 16;

const FULL: RangeResult = Object.freeze({ kind: "full" });
const UNSATISFIABLE: RangeResult = Object.freeze({ kind: "unsatisfiable" });

const COMMA = 0x2c;
const DASH = 0x2d;
const DQUOTE = 0x22;

// Scratch space for the ranges of one header. parseRange is synchronous, so one module-level
// buffer is never shared by two calls, and the common single-range request allocates nothing
// but its result.
const starts = new Float64Array(MAX_RANGES);
const ends = new Float64Array(MAX_RANGES);
// Where readNumber stopped: returning it through a variable avoids a tuple per number.
let cursor = 0;

/**
 * What to send for a Range field on a representation of `size` bytes. Anything that is not a
 * valid `bytes=` range-set (other units, bad syntax, last-pos < first-pos, too many ranges)
 * gives "full", as §14.2 says to ignore such a field. Ranges starting at or past the end are
 * dropped; if none is left the answer is 416. Overlapping and adjacent ranges are merged
 * (§14.6 allows it, in any order), so the parts come back ascending and disjoint.
 */
export function parseRange(header: string | undefined, size: number): RangeResult {
  if (header === undefined || !isBytesUnit(header)) return FULL;
  const n = header.length;
  let i = 6;
  let specs = 0;
  let count = 0;
  for (;;) {
    // §5.6.1.2: empty list members ("0-1,,5-6") are to be accepted and skipped.
    while (i < n) {
      const c = header.charCodeAt(i);
      if (c !== 0x20 && c !== 0x09 && c !== COMMA) break;
      i++;
    }
    if (i >= n) break;
    let start: number;
    let end: number;
    if (header.charCodeAt(i) === DASH) {
      const suffix = readNumber(header, i + 1);
      if (suffix < 0) return FULL;
      i = cursor;
      // A suffix of zero bytes is valid syntax but never satisfiable (§14.1.1).
      start = suffix > 0 ? Math.max(0, size - suffix) : size;
      end = size - 1;
    } else {
      const first = readNumber(header, i);
      if (first < 0 || header.charCodeAt(cursor) !== DASH) return FULL;
      const last = readNumber(header, cursor + 1);
      if (last >= 0 && last < first) return FULL;
      i = cursor;
      start = first;
      end = last < 0 ? size - 1 : Math.min(last, size - 1);
    }
    i = skipOws(header, i);
    if (i < n && header.charCodeAt(i) !== COMMA) return FULL;
    if (++specs > MAX_RANGES) return FULL;
    if (start < size) {
      starts[count] = start;
      ends[count] = end;
      count++;
    }
  }
  if (specs === 0) return FULL;
  if (count === 0) return UNSATISFIABLE;
  if (count === 1) return { kind: "single", start: starts[0]!, end: ends[0]! };
  return coalesce(count);
}

/** Sorts the scratch ranges by start and merges those that overlap or touch. */
function coalesce(count: number): RangeResult {
  // Insertion sort: at most MAX_RANGES items, and usually already ascending.
  for (let a = 1; a < count; a++) {
    const s = starts[a]!;
    const e = ends[a]!;
    let b = a - 1;
    while (b >= 0 && starts[b]! > s) {
      starts[b + 1] = starts[b]!;
      ends[b + 1] = ends[b]!;
      b--;
    }
    starts[b + 1] = s;
    ends[b + 1] = e;
  }
  let merged = 0;
  for (let a = 1; a < count; a++) {
    if (starts[a]! <= ends[merged]! + 1) ends[merged] = Math.max(ends[merged]!, ends[a]!);
    else {
      merged++;
      starts[merged] = starts[a]!;
      ends[merged] = ends[a]!;
    }
  }
  if (merged === 0) return { kind: "single", start: starts[0]!, end: ends[0]! };
  const ranges = new Array<{ start: number; end: number }>(merged + 1);
  for (let a = 0; a <= merged; a++) ranges[a] = { start: starts[a]!, end: ends[a]! };
  return { kind: "multi", ranges };
}

/** "bytes=" with the unit matched case-insensitively (§14.1: range units are). */
function isBytesUnit(h: string): boolean {
  return (
    h.length > 6 &&
    (h.charCodeAt(0) | 0x20) === 0x62 &&
    (h.charCodeAt(1) | 0x20) === 0x79 &&
    (h.charCodeAt(2) | 0x20) === 0x74 &&
    (h.charCodeAt(3) | 0x20) === 0x65 &&
    (h.charCodeAt(4) | 0x20) === 0x73 &&
    h.charCodeAt(5) === 0x3d
  );
}

/**
 * 1*DIGIT at `i`, or -1 when there is no digit; sets `cursor` past the digits. Values beyond
 * Number.MAX_SAFE_INTEGER saturate to Infinity: they only ever need to compare as "past the end".
 */
function readNumber(s: string, i: number): number {
  let n = 0;
  let at = i;
  for (; at < s.length; at++) {
    const d = s.charCodeAt(at) - 0x30;
    if (!(d >= 0 && d <= 9)) break;
    n = n > Number.MAX_SAFE_INTEGER ? Infinity : n * 10 + d;
  }
  cursor = at;
  return at === i ? -1 : n;
}

/**
 * Whether the Range field may be honoured (§13.1.5): true when If-Range is absent, when it is an
 * entity-tag that strongly matches `etag` (a weak tag on either side never does), or when it is
 * an HTTP-date equal to Last-Modified at one-second precision. Anything else, including an
 * invalid value, is false: the caller then sends the whole representation. Treating
 * `lastModified` as a strong validator is sound here because a published deployment never
 * changes.
 */
export function ifRangeAllows(ifRange: string | undefined, etag: string, lastModified: Date): boolean {
  if (ifRange === undefined) return true;
  if (ifRange === etag) return etag.charCodeAt(0) === DQUOTE;
  const start = skipOws(ifRange, 0);
  let end = ifRange.length;
  while (end > start && isOws(ifRange.charCodeAt(end - 1))) end--;
  const first = ifRange.charCodeAt(start);
  if (first === DQUOTE) return etag.charCodeAt(0) === DQUOTE && end - start === etag.length && ifRange.startsWith(etag, start);
  if (first === 0x57 && ifRange.charCodeAt(start + 1) === 0x2f) return false;
  // NaN (not a valid HTTP-date) never equals anything, so an invalid value is false too.
  return parseHttpDate(ifRange) === wholeSeconds(lastModified);
}

/** Content-Range for a 206 part: `bytes 0-499/1234`. */
export function contentRange(start: number, end: number, size: number): string {
  return `bytes ${start}-${end}/${size}`;
}

// Content-Range for a 416 (§14.4): "bytes */1234".
export function unsatisfiedRange(size: number): string {
  return `bytes */${size}`;
}

export interface MultipartByteranges {
  boundary: string;
  /** The response's Content-Type: `multipart/byteranges; boundary=…`. */
  contentType: string;
  /** Write `head`, then bytes start..end (inclusive) of the representation, for each part. */
  parts: Array<{ head: Buffer; start: number; end: number }>;
  /** Written after the last part's bytes: the close delimiter. */
  tail: Buffer;
  /** The exact Content-Length of heads, part bytes and tail together. */
  length: number;
}

/**
 * The framing of a multipart/byteranges body (§14.6, RFC 2046 §5.1.1). The CRLF before each
 * delimiter belongs to the delimiter, so every head after the first starts with one and the tail
 * is CRLF "--" boundary "--" CRLF. The boundary is 32 random hex characters per response, so the
 * file's own bytes cannot forge a delimiter except by chance. Throws a RangeError for a range
 * outside the representation: a wrong Content-Length would corrupt the connection.
 */
export function multipartByteranges(ranges: ReadonlyArray<{ start: number; end: number }>, size: number, contentType: string): MultipartByteranges {
  const boundary = randomBytes(16).toString("hex");
  const typeLine = contentType === "" ? "" : `Content-Type: ${contentType}\r\n`;
  const parts = new Array<{ head: Buffer; start: number; end: number }>(ranges.length);
  let length = 0;
  for (let k = 0; k < ranges.length; k++) {
    const { start, end } = ranges[k]!;
    if (!(Number.isInteger(start) && Number.isInteger(end) && start >= 0 && start <= end && end < size)) {
      throw new RangeError(`Range ${start}-${end} is outside a representation of ${size} bytes`);
    }
    const head = Buffer.from(`${k === 0 ? "" : "\r\n"}--${boundary}\r\n${typeLine}Content-Range: ${contentRange(start, end, size)}\r\n\r\n`, "utf8");
    parts[k] = { head, start, end };
    length += head.length + (end - start + 1);
  }
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`, "latin1");
  length += tail.length;
  return { boundary, contentType: `multipart/byteranges; boundary=${boundary}`, parts, tail, length };
}
