// Ready answers (head and body in one buffer) stay ready across seconds: their Date is written
// in place, except in a buffer a socket still holds, and answers nobody asks for are let go.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { headEnd, lent, useReadyAnswersBudget, wholeResponse, wholeStats } from "./responseHead";
import { EdgeMemory, MIN_BUDGET_BYTES } from "../memory/budget";
import { READY_ANSWER_BYTES } from "../memory/sizes";

const END = headEnd(5);

function dateOf(bytes: Buffer): string {
  return /\r\ndate: ([^\r]*)\r\n/.exec(bytes.toString("latin1"))![1]!;
}

describe("wholeResponse", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date("2026-11-24T16:35:09.100Z"));
  });
  afterEach(() => vi.useRealTimers());

  it("gives the same buffer within a second, head then body", () => {
    const headers = { "content-type": "text/plain", "content-length": 5 };
    const body = Buffer.from("hello");
    const first = wholeResponse(200, headers, body, END);
    vi.setSystemTime(new Date("2026-11-24T16:35:09.900Z"));
    expect(wholeResponse(200, headers, body, END)).toBe(first);
    const text = first.toString("latin1");
    expect(text.startsWith("HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 5\r\ndate: Tue, 24 Nov 2026 16:35:09 GMT\r\n")).toBe(true);
    expect(text.endsWith("connection: keep-alive\r\nkeep-alive: timeout=5\r\n\r\nhello")).toBe(true);
  });

  it("writes the new second's Date into the same buffer, and nothing else", () => {
    const headers = { "content-length": 3 };
    const body = Buffer.from("abc");
    vi.setSystemTime(new Date("2026-11-24T16:59:59.500Z"));
    const first = wholeResponse(200, headers, body, END);
    const before = Buffer.from(first);
    vi.setSystemTime(new Date("2026-11-24T17:00:00.000Z"));
    const next = wholeResponse(200, headers, body, END);
    expect(next).toBe(first);
    expect(dateOf(next)).toBe("Tue, 24 Nov 2026 17:00:00 GMT");
    expect(next.length).toBe(before.length);
    expect(next.toString("latin1").replace(dateOf(next), "")).toBe(before.toString("latin1").replace(dateOf(before), ""));
  });

  it("never changes a buffer a socket still holds: the next second gets a new one", () => {
    const headers = { "content-length": 1 };
    const body = Buffer.from("x");
    const held = wholeResponse(200, headers, body, END);
    lent(headers, held);
    expect(wholeResponse(200, headers, body, END)).toBe(held); // same second: same bytes, unchanged
    vi.setSystemTime(new Date("2026-11-24T16:35:10.000Z"));
    const fresh = wholeResponse(200, headers, body, END);
    expect(fresh).not.toBe(held);
    expect(dateOf(held)).toBe("Tue, 24 Nov 2026 16:35:09 GMT");
    expect(dateOf(fresh)).toBe("Tue, 24 Nov 2026 16:35:10 GMT");
    // The new buffer is ready to be brought up to date in place again.
    vi.setSystemTime(new Date("2026-11-24T16:35:11.000Z"));
    expect(wholeResponse(200, headers, body, END)).toBe(fresh);
  });

  it("builds again when the status, body or connection lines differ for the same header object", () => {
    const headers = { "content-length": 2 };
    const ok = wholeResponse(200, headers, Buffer.from("ok"), END);
    expect(wholeResponse(200, headers, Buffer.from("ok"), END)).not.toBe(ok); // another body buffer
    const notFound = wholeResponse(404, headers, Buffer.alloc(0), END);
    expect(notFound.toString("latin1").startsWith("HTTP/1.1 404 Not Found\r\n")).toBe(true);
    const closing = wholeResponse(404, headers, Buffer.alloc(0), headEnd(undefined));
    expect(closing.toString("latin1").endsWith("connection: close\r\n\r\n")).toBe(true);
  });

  it("lets go of answers nobody asked for in ten seconds", () => {
    vi.setSystemTime(new Date("2026-11-24T18:00:00.100Z")); // later than every earlier test
    wholeResponse(200, { "content-length": 0 }, Buffer.alloc(0), END); // sweeps what they left
    const start = wholeStats();
    const kept = { "content-length": 4 };
    const dropped = { "content-length": 4 };
    const body = Buffer.from("four");
    const keptBytes = wholeResponse(200, kept, body, END);
    const old = wholeResponse(200, dropped, body, END);
    expect(wholeStats().entries).toBe(start.entries + 2);
    for (let s = 1; s <= 12; s++) {
      vi.setSystemTime(new Date(Date.parse("2026-11-24T18:00:00.100Z") + s * 1000));
      expect(wholeResponse(200, kept, body, END)).toBe(keptBytes);
    }
    expect(wholeStats().entries).toBe(1);
    expect(wholeStats().bytes).toBe(READY_ANSWER_BYTES + keptBytes.length);
    expect(wholeResponse(200, dropped, body, END)).not.toBe(old);
  });

  it("holds what its part of the edge's budget allows, the oldest answers going first", () => {
    const memory = new EdgeMemory(MIN_BUDGET_BYTES);
    useReadyAnswersBudget(memory);
    const part = memory.part("readyAnswers");
    expect(wholeStats()).toEqual({ entries: 0, bytes: 0 });
    // A redirect that carries the request's query: a header object, and an answer, per request.
    const body = Buffer.alloc(0);
    const made: Array<{ headers: { location: string; "content-length": number }; bytes: Buffer }> = [];
    for (let i = 0; i < 500; i++) {
      const headers = { location: `/to?${i}-${"q".repeat(8000)}`, "content-length": 0 };
      made.push({ headers, bytes: wholeResponse(302, headers, body, END) });
    }
    const { entries, bytes } = wholeStats();
    expect(bytes).toBeLessThanOrEqual(part.cap);
    expect(bytes).toBe(part.used);
    expect(entries).toBeLessThan(500);
    expect(entries).toBeGreaterThan(100);
    // The newest is ready, the oldest was let go (and is made again when asked for).
    expect(wholeResponse(302, made[499]!.headers, body, END)).toBe(made[499]!.bytes);
    expect(wholeResponse(302, made[0]!.headers, body, END)).not.toBe(made[0]!.bytes);
    expect(memory.used).toBe(part.used);
  });
});
