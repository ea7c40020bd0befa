// Conditional GET/HEAD (RFC 9110 §13): If-None-Match, If-Modified-Since, and the HTTP-date
// format they share with Last-Modified and If-Range. Runs on every request of the edge, so the
// parsers walk the string by index: no regular expressions, no slices, no intermediate arrays.

import { isOws, skipOws } from "./syntax";

const SP = 0x20;
const HTAB = 0x09;
const COMMA = 0x2c;
const DQUOTE = 0x22;
const STAR = 0x2a;
const W = 0x57;
const SLASH = 0x2f;

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const LONG_DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const MONTH_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
// Date.UTC maps years 0–99 to 1900–1999; 400 Gregorian years are exactly this many days, so
// shifting by them keeps the calendar identical.
const FOUR_CENTURIES_MS = 146_097 * 86_400_000;

/**
 * 304 or not, for a GET or HEAD of a representation that exists (RFC 9110 §13.2.2): when
 * If-None-Match is present it alone decides (weak comparison); otherwise a valid
 * If-Modified-Since does, at the one-second precision of HTTP-date. `etag` is the full
 * entity-tag as sent in the ETag field, quotes included (`"abc"` or `W/"abc"`).
 */
export function isNotModified(
  req: { ifNoneMatch: string | undefined; ifModifiedSince: string | undefined },
  etag: string,
  lastModified: Date,
): boolean {
  // Present but empty or unparsable still counts as present: the RFC says to ignore
  // If-Modified-Since whenever If-None-Match is sent, and failing to match only costs a 200.
  if (req.ifNoneMatch !== undefined) return noneMatchHits(req.ifNoneMatch, etag);
  if (req.ifModifiedSince === undefined) return false;
  const since = parseHttpDate(req.ifModifiedSince);
  // NaN (invalid date, §13.1.3 says ignore) compares false, as does an invalid lastModified.
  return wholeSeconds(lastModified) <= since;
}

/** Milliseconds since the epoch of the last full second, the precision an HTTP-date carries. */
export function wholeSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000) * 1000;
}

/** Whether an If-None-Match list weakly matches `etag` (§8.8.3.2: W/ ignored on both sides). */
function noneMatchHits(list: string, etag: string): boolean {
  // The usual revalidation sends back exactly the ETag we gave; a native compare settles it.
  if (list === etag) return true;
  // Berth's own tags are strong, so this slice (an allocation) only happens for a weak one.
  const opaque = etag.charCodeAt(0) === W && etag.charCodeAt(1) === SLASH ? etag.slice(2) : etag;
  const n = list.length;
  let i = 0;
  while (i < n) {
    const c = list.charCodeAt(i);
    if (c === SP || c === HTAB || c === COMMA) {
      i++;
      continue;
    }
    if (c === STAR) {
      // "*" is meant to stand alone; we also accept it as a list member rather than fail the
      // whole field, since it can only mean "any current representation".
      const after = skipOws(list, i + 1);
      if (after === n || list.charCodeAt(after) === COMMA) return true;
      i = nextComma(list, after);
      continue;
    }
    // %s"W/": the weak prefix is case-sensitive, so "w/" makes the member malformed.
    const open = c === W && list.charCodeAt(i + 1) === SLASH ? i + 2 : i;
    if (list.charCodeAt(open) !== DQUOTE) {
      i = nextComma(list, open);
      continue;
    }
    // etagc excludes DQUOTE but not ",", so the tag ends at the next quote, not the next comma.
    const close = list.indexOf('"', open + 1);
    if (close === -1) return false;
    const after = skipOws(list, close + 1);
    if (after < n && list.charCodeAt(after) !== COMMA) {
      i = nextComma(list, after);
      continue;
    }
    if (close + 1 - open === opaque.length && list.startsWith(opaque, open)) return true;
    i = after;
  }
  return false;
}

function nextComma(s: string, i: number): number {
  const comma = s.indexOf(",", i);
  return comma === -1 ? s.length : comma;
}

/**
 * An HTTP-date (§5.6.7) as milliseconds since the epoch, or NaN. All three formats are accepted
 * as the RFC requires of recipients: IMF-fixdate, obsolete RFC 850 and asctime. Names are
 * case-sensitive per the grammar; the weekday is checked to be a weekday name but not against
 * the date, which the RFC does not ask for. Surrounding whitespace is tolerated.
 */
export function parseHttpDate(value: string): number {
  // Clients revalidating one file all send back the same Last-Modified, so remember the last.
  if (value === lastDateText) return lastDateMs;
  const ms = parseDate(value);
  lastDateText = value;
  lastDateMs = ms;
  return ms;
}

let lastDateText = "";
let lastDateMs = NaN;

function parseDate(value: string): number {
  let start = 0;
  let end = value.length;
  while (start < end && isOws(value.charCodeAt(start))) start++;
  while (end > start && isOws(value.charCodeAt(end - 1))) end--;
  const length = end - start;
  const s = start;
  if (length === 29 && value.charCodeAt(s + 3) === COMMA) {
    // Sun, 06 Nov 1994 08:49:37 GMT
    if (nameAt(DAYS, value, s) < 0 || !literal(value, s + 4, " ") || value.charCodeAt(s + 7) !== SP) return NaN;
    if (value.charCodeAt(s + 11) !== SP || value.charCodeAt(s + 16) !== SP || !literal(value, s + 25, " GMT")) return NaN;
    return toMs(digits(value, s + 12, 4), nameAt(MONTHS, value, s + 8), digits(value, s + 5, 2), value, s + 17);
  }
  if (length === 24 && value.charCodeAt(s + 3) === SP) {
    // Sun Nov  6 08:49:37 1994
    if (nameAt(DAYS, value, s) < 0 || value.charCodeAt(s + 7) !== SP || value.charCodeAt(s + 10) !== SP || value.charCodeAt(s + 19) !== SP)
      return NaN;
    const day = value.charCodeAt(s + 8) === SP ? digits(value, s + 9, 1) : digits(value, s + 8, 2);
    return toMs(digits(value, s + 20, 4), nameAt(MONTHS, value, s + 4), day, value, s + 11);
  }
  // Sunday, 06-Nov-94 08:49:37 GMT
  const day = nameAt(LONG_DAYS, value, s);
  if (day < 0) return NaN;
  const c = s + LONG_DAYS[day]!.length;
  if (end - c !== 24 || !literal(value, c, ", ") || value.charCodeAt(c + 4) !== 0x2d || value.charCodeAt(c + 8) !== 0x2d) return NaN;
  if (value.charCodeAt(c + 11) !== SP || !literal(value, c + 20, " GMT")) return NaN;
  const yy = digits(value, c + 9, 2);
  return yy < 0 ? NaN : toMs(fullYear(yy), nameAt(MONTHS, value, c + 5), digits(value, c + 2, 2), value, c + 12);
}

// §5.6.7: a two-digit year more than 50 years in the future means the most recent past year
// with those digits. Only the rare RFC 850 form gets here, so reading the clock is fine.
function fullYear(yy: number): number {
  const now = new Date().getUTCFullYear();
  let year = now - (now % 100) + yy;
  if (year > now + 50) year -= 100;
  else if (year <= now - 50) year += 100;
  return year;
}

/** "hh:mm:ss" at `at`, with the date parts already read; NaN when any part is out of range. */
function toMs(year: number, month: number, day: number, s: string, at: number): number {
  const hour = digits(s, at, 2);
  const minute = digits(s, at + 3, 2);
  const second = digits(s, at + 6, 2);
  if (s.charCodeAt(at + 2) !== 0x3a || s.charCodeAt(at + 5) !== 0x3a) return NaN;
  if (year < 0 || month < 0 || day < 1 || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 60) return NaN;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (day > MONTH_DAYS[month]! || (month === 1 && day === 29 && !leap)) return NaN;
  // A leap second (60) lands on the next minute's 00, which Date.UTC does by itself.
  if (year < 100) return Date.UTC(year + 400, month, day, hour, minute, second) - FOUR_CENTURIES_MS;
  return Date.UTC(year, month, day, hour, minute, second);
}

function digits(s: string, at: number, count: number): number {
  let n = 0;
  for (let k = 0; k < count; k++) {
    const d = s.charCodeAt(at + k) - 0x30;
    if (!(d >= 0 && d <= 9)) return -1;
    n = n * 10 + d;
  }
  return n;
}

function nameAt(names: readonly string[], s: string, at: number): number {
  for (let k = 0; k < names.length; k++) if (s.startsWith(names[k]!, at)) return k;
  return -1;
}

function literal(s: string, at: number, text: string): boolean {
  return s.startsWith(text, at);
}

// A direct-mapped cache of formatted seconds: the edge formats the same few Last-Modified
// values (one per deployment) over and over, and a hit costs no allocation.
const SLOTS = 64;
const slotSecond = new Float64Array(SLOTS).fill(NaN);
const slotText = new Array<string>(SLOTS).fill("");

/**
 * IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the only format a sender may generate.
 * Throws a RangeError for an invalid Date or a year outside 0–9999, which it cannot express.
 */
export function httpDate(date: Date): string {
  const ms = date.getTime();
  const second = Math.floor(ms / 1000);
  const slot = second & (SLOTS - 1);
  if (slotSecond[slot] === second) return slotText[slot]!;
  const year = date.getUTCFullYear();
  if (!(year >= 0 && year <= 9999)) throw new RangeError(`No IMF-fixdate for ${String(date)}`);
  const text = `${DAYS[date.getUTCDay()]!}, ${pad2(date.getUTCDate())} ${MONTHS[date.getUTCMonth()]!} ${String(year).padStart(4, "0")} ${pad2(date.getUTCHours())}:${pad2(date.getUTCMinutes())}:${pad2(date.getUTCSeconds())} GMT`;
  slotSecond[slot] = second;
  slotText[slot] = text;
  return text;
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}
