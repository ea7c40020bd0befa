// Writes the head of a response as text. The edge reuses header objects across requests (one
// per prepared file and encoding), so each object's lines are worked out once and remembered.
import { STATUS_CODES, type OutgoingHttpHeaders } from "node:http";
import { EdgeMemory, MIN_BUDGET_BYTES, type MemoryPart } from "../memory/budget";
import { READY_ANSWER_BYTES } from "../memory/sizes";

const statusLines = new Map<number, string>();
const linesOf = new WeakMap<OutgoingHttpHeaders, string>();
// A value with CR, LF or NUL would let one response smuggle another; values are checked at
// publish (_headers, _redirects), and this is the last line of defence.
const UNSAFE_VALUE = /[\r\n\0]/;

const DATE_FIELD = "date: ";
let dateSecond = -1;
/** The Date value of the current second: always 29 characters ("Tue, 24 Nov 2026 16:35:09 GMT"). */
let dateValue = "";
let dateLine = "";

// Whole answers (head and body in one buffer), by header object: a hot small file costs one
// write of a ready buffer, not a copy or a writev. Up to 64 KB a single write() of a ready
// buffer measurably beats writev() of head and body (gzip case of bench:edge, a 28 KB brotli
// body: +8 % req/s); bigger ones cost their bytes anyway.
//
// Only the Date field changes from one second to the next, and it keeps its length: so an
// answer is brought up to date by writing its 29 Date bytes in place, on its first use in a new
// second. Rebuilding a thousand answers every second instead (the many case) cost 5 % of req/s.
// A buffer still queued on a socket when it was written ("lent") is never changed in place: the
// socket may send it later, and a half-old, half-new Date is not a date. It is built afresh.
//
// What they hold together is bounded by their part of the edge's budget (memory/budget.ts): a
// header object made for one request (a redirect that carries the request's query) makes an
// answer nobody asks for again, so past the cap the oldest answers go first.
/** Bodies up to this size are worth a ready-made answer. */
export const WHOLE_MAX_BODY = 64 * 1024;
/** An answer not used for this long is let go, so old deployments' bodies do not stay. */
const WHOLE_IDLE_SECONDS = 10;
/** The ready answers' part of the process's edge budget; until start-up says, the smallest budget's. */
let wholePart: MemoryPart = new EdgeMemory(MIN_BUDGET_BYTES).part("readyAnswers");

/** Counts the ready answers in `memory` (one per process: the answers are the process's). */
export function useReadyAnswersBudget(memory: EdgeMemory): void {
  for (const [headers, ready] of whole) forget(headers, ready);
  wholePart = memory.part("readyAnswers");
}

interface Ready {
  status: number;
  body: Buffer;
  end: string;
  bytes: Buffer;
  /** Where the Date value starts in `bytes`. */
  dateAt: number;
  /** The second whose Date `bytes` carries. */
  second: number;
  /** Queued on a socket at some point: never to be written to again. */
  lent: boolean;
}

let wholeBytes = 0;
let lastSweep = 0;
const whole = new Map<OutgoingHttpHeaders, Ready>();

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

/** The current second; the Date field (RFC 9110 §6.6.1) is worked out once per second. */
function currentSecond(): number {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    dateValue = new Date(now).toUTCString();
    dateLine = `${DATE_FIELD}${dateValue}\r\n`;
    // (A clock set back must not stop the sweeps until it catches up.)
    if (second - lastSweep >= WHOLE_IDLE_SECONDS || second < lastSweep) sweep(second);
  }
  return second;
}

/** Lets go of the ready answers nobody asked for in the last WHOLE_IDLE_SECONDS. */
function sweep(second: number): void {
  lastSweep = second;
  for (const [headers, ready] of whole) {
    if (second - ready.second >= WHOLE_IDLE_SECONDS || second < ready.second) forget(headers, ready);
  }
}

function forget(headers: OutgoingHttpHeaders, ready: Ready): void {
  whole.delete(headers);
  const size = readySize(ready);
  wholeBytes -= size;
  wholePart.release(size);
}

function readySize(ready: Ready): number {
  return READY_ANSWER_BYTES + ready.bytes.length;
}

/** The connection-management lines and the blank line that ends a head. */
export function headEnd(keepAliveSeconds: number | undefined): string {
  return keepAliveSeconds === undefined ? "connection: close\r\n\r\n" : `connection: keep-alive\r\nkeep-alive: timeout=${keepAliveSeconds}\r\n\r\n`;
}

/** The whole head: status line, fields, Date, then `end` (see headEnd). */
export function responseHead(status: number, headers: OutgoingHttpHeaders, end: string): string {
  currentSecond();
  return statusLine(status) + headerLines(headers) + dateLine + end;
}

/**
 * Head and body in one buffer, kept ready for the next request with the same header object
 * (see `whole`). For small bodies only, or none (HEAD, 304, redirects). A caller whose socket
 * did not take the buffer at once must say so with `lent`.
 */
export function wholeResponse(status: number, headers: OutgoingHttpHeaders, body: Buffer, end: string): Buffer {
  const second = currentSecond();
  const ready = whole.get(headers);
  if (ready !== undefined) {
    if (ready.body === body && ready.status === status && ready.end === end) {
      if (ready.second === second) return ready.bytes;
      if (!ready.lent) {
        ready.bytes.write(dateValue, ready.dateAt, "latin1");
        ready.second = second;
        return ready.bytes;
      }
    }
    forget(headers, ready);
  }
  const text = responseHead(status, headers, end);
  // The Date line sits just before `end`; its value after the field name.
  const dateAt = text.length - end.length - dateLine.length + DATE_FIELD.length;
  const bytes = Buffer.allocUnsafeSlow(text.length + body.length);
  bytes.write(text, 0, "latin1");
  body.copy(bytes, text.length);
  const made: Ready = { status, body, end, bytes, dateAt, second, lent: false };
  const size = readySize(made);
  if (size <= wholePart.cap) {
    // Oldest first: a Map iterates in insertion order.
    for (const [oldHeaders, old] of whole) {
      if (wholeBytes + size <= wholePart.cap) break;
      forget(oldHeaders, old);
    }
    whole.set(headers, made);
    wholeBytes += size;
    wholePart.charge(size);
  }
  return bytes;
}

/** The socket kept `bytes` (from wholeResponse) queued: they must not change any more. */
export function lent(headers: OutgoingHttpHeaders, bytes: Buffer): void {
  const ready = whole.get(headers);
  if (ready !== undefined && ready.bytes === bytes) ready.lent = true;
}

/** For tests: the ready answers held, and their bytes as the budget counts them. */
export function wholeStats(): { entries: number; bytes: number } {
  return { entries: whole.size, bytes: wholeBytes };
}
