import { describe, expect, it } from "vitest";
import { contentRange, ifRangeAllows, MAX_RANGES, multipartByteranges, parseRange, unsatisfiedRange, type RangeResult } from "./range";

const FULL: RangeResult = { kind: "full" };
const UNSATISFIABLE: RangeResult = { kind: "unsatisfiable" };
const single = (start: number, end: number): RangeResult => ({ kind: "single", start, end });
const multi = (...pairs: Array<[number, number]>): RangeResult => ({ kind: "multi", ranges: pairs.map(([start, end]) => ({ start, end })) });

describe("parseRange on 1000 bytes", () => {
  it.each<[string | undefined, RangeResult]>([
    [undefined, FULL],
    ["bytes=0-0", single(0, 0)],
    ["bytes=0-499", single(0, 499)],
    ["bytes=500-999", single(500, 999)],
    ["bytes=-1", single(999, 999)],
    ["bytes=-500", single(500, 999)],
    ["bytes=-1000", single(0, 999)],
    ["bytes=-2000", single(0, 999)],
    ["bytes=5-", single(5, 999)],
    ["bytes=0-", single(0, 999)],
    ["bytes=999-", single(999, 999)],
    ["bytes=0-999999", single(0, 999)],
    ["bytes=998-1000", single(998, 999)],
    ["bytes=0-99999999999999999999999", single(0, 999)],
    ["bytes=-99999999999999999999999", single(0, 999)],
    ["bytes=007-008", single(7, 8)],
    ["BYTES=0-1", single(0, 1)],
    ["Bytes=0-1", single(0, 1)],
    // Invalid or foreign: the field is ignored.
    ["bytes=100-50", FULL],
    ["bytes=abc", FULL],
    ["items=0-1", FULL],
    ["bits=0-1", FULL],
    ["bytes", FULL],
    ["bytes=", FULL],
    ["bytes=,", FULL],
    ["bytes=, ,", FULL],
    ["bytes 0-1", FULL],
    ["bytes:0-1", FULL],
    ["bytes=-", FULL],
    ["bytes=--1", FULL],
    ["bytes=1", FULL],
    ["bytes=1--2", FULL],
    ["bytes=1-2-3", FULL],
    ["bytes=0 -1", FULL],
    ["bytes=0- 1", FULL],
    ["bytes=0-1 2-3", FULL],
    ["bytes=0-1;x", FULL],
    ["bytes=+1-2", FULL],
    ["bytes=0x10-20", FULL],
    ["bytes=1.5-2", FULL],
    ["bytes=-1.5", FULL],
    ["bytes=0-1,abc", FULL],
    ["bytes=0-1,100-50", FULL],
    ["bytes=0-1,1000-999", FULL],
    // Nothing satisfiable: 416.
    ["bytes=1000-", UNSATISFIABLE],
    ["bytes=1000-2000", UNSATISFIABLE],
    ["bytes=5000-6000", UNSATISFIABLE],
    ["bytes=99999999999999999999-", UNSATISFIABLE],
    ["bytes=-0", UNSATISFIABLE],
    ["bytes=-0,-0", UNSATISFIABLE],
    ["bytes=1000-,2000-3000,-0", UNSATISFIABLE],
    // Unsatisfiable members among satisfiable ones are dropped.
    ["bytes=0-1,1000-1001", single(0, 1)],
    ["bytes=-0,5-6", single(5, 6)],
    // Several ranges: sorted, overlapping and adjacent ones merged.
    ["bytes=0-1,5-6", multi([0, 1], [5, 6])],
    ["bytes=5-6,0-1", multi([0, 1], [5, 6])],
    ["bytes=0-1, 5-6", multi([0, 1], [5, 6])],
    ["bytes=0-1 ,\t5-6", multi([0, 1], [5, 6])],
    ["bytes=0-1,,5-6,", multi([0, 1], [5, 6])],
    ["bytes=0-0,-1", multi([0, 0], [999, 999])],
    ["bytes=0-4,6-9", multi([0, 4], [6, 9])],
    ["bytes=0-4,5-9", single(0, 9)],
    ["bytes=0-5,3-8", single(0, 8)],
    ["bytes=0-100,10-20", single(0, 100)],
    ["bytes=10-20,0-100", single(0, 100)],
    ["bytes=500-,0-", single(0, 999)],
    ["bytes=0-1,0-1", single(0, 1)],
    ["bytes=-100,850-898", multi([850, 898], [900, 999])],
    ["bytes=-100,850-899", single(850, 999)],
    ["bytes=-100,850-900", single(850, 999)],
    ["bytes=0-10,5-20,15-30,100-200", multi([0, 30], [100, 200])],
    ["bytes=300-400,0-10,200-250,11-12", multi([0, 12], [200, 250], [300, 400])],
    ["bytes=900-,0-99,100-199,950-2000", multi([0, 199], [900, 999])],
  ])("%j", (header, expected) => {
    expect(parseRange(header, 1000)).toEqual(expected);
  });
});

describe("parseRange edge sizes", () => {
  it.each<[string | undefined, number, RangeResult]>([
    [undefined, 0, FULL],
    ["bytes=abc", 0, FULL],
    ["items=0-1", 0, FULL],
    ["bytes=0-", 0, UNSATISFIABLE],
    ["bytes=0-0", 0, UNSATISFIABLE],
    ["bytes=-1", 0, UNSATISFIABLE],
    ["bytes=-0", 0, UNSATISFIABLE],
    ["bytes=0-1,-5", 0, UNSATISFIABLE],
    ["bytes=0-0", 1, single(0, 0)],
    ["bytes=-1", 1, single(0, 0)],
    ["bytes=1-", 1, UNSATISFIABLE],
    ["bytes=0-0,0-0", 1, single(0, 0)],
    ["bytes=0-0,1-1", 2, single(0, 1)],
  ])("%j on %i bytes", (header, size, expected) => {
    expect(parseRange(header, size)).toEqual(expected);
  });

  it("handles sizes beyond 4 GiB exactly", () => {
    const size = 6 * 1024 ** 3 + 7;
    expect(parseRange("bytes=-10", size)).toEqual(single(size - 10, size - 1));
    expect(parseRange(`bytes=5000000000-`, size)).toEqual(single(5_000_000_000, size - 1));
  });
});

describe(`parseRange caps a request at ${MAX_RANGES} ranges`, () => {
  const specs = (count: number) => Array.from({ length: count }, (_, k) => `${k * 10}-${k * 10 + 1}`);

  it(`answers ${MAX_RANGES} disjoint ranges with ${MAX_RANGES} parts`, () => {
    const result = parseRange(`bytes=${specs(MAX_RANGES).join(",")}`, 1000);
    expect(result.kind).toBe("multi");
    expect(result.kind === "multi" && result.ranges.length).toBe(MAX_RANGES);
  });

  it.each<[string, string]>([
    ["17 disjoint ranges", `bytes=${specs(17).join(",")}`],
    ["17 copies of one range", `bytes=${Array(17).fill("0-0").join(",")}`],
    ["17 ranges, some unsatisfiable", `bytes=${[...specs(10), ...Array(7).fill("5000-")].join(",")}`],
    ["a thousand ranges", `bytes=${Array(1000).fill("0-").join(",")}`],
  ])("ignores %s", (_name, header) => {
    expect(parseRange(header, 1000)).toEqual(FULL);
  });

  it("does not count empty list members", () => {
    expect(parseRange(`bytes=${specs(MAX_RANGES).join(",,")}`, 1000).kind).toBe("multi");
  });
});

describe("ifRangeAllows", () => {
  const lastModified = new Date("2024-05-01T12:00:00.750Z");
  it.each<[string | undefined, string, boolean]>([
    [undefined, '"abc"', true],
    ['"abc"', '"abc"', true],
    [' "abc"\t', '"abc"', true],
    ['W/"abc"', '"abc"', false],
    ['W/"abc"', 'W/"abc"', false],
    ['"abc"', 'W/"abc"', false],
    ['"xyz"', '"abc"', false],
    ['"ab"', '"abc"', false],
    ['"abc", "xyz"', '"abc"', false],
    ['"abc"x', '"abc"', false],
    ["abc", '"abc"', false],
    ["*", '"abc"', false],
    ["", '"abc"', false],
    ["Wed, 01 May 2024 12:00:00 GMT", '"abc"', true],
    [" Wed, 01 May 2024 12:00:00 GMT ", '"abc"', true],
    ["Wednesday, 01-May-24 12:00:00 GMT", '"abc"', true],
    ["Wed May  1 12:00:00 2024", '"abc"', true],
    ["Wed, 01 May 2024 11:59:59 GMT", '"abc"', false],
    ["Wed, 01 May 2024 12:00:01 GMT", '"abc"', false],
    ["Thu, 02 May 2024 12:00:00 GMT", '"abc"', false],
    ["Wed, 01 May 2024 12:00:00 UTC", '"abc"', false],
    ["yesterday", '"abc"', false],
  ])("If-Range %j with ETag %s", (ifRange, etag, expected) => {
    expect(ifRangeAllows(ifRange, etag, lastModified)).toBe(expected);
  });

  it("is false for an invalid Last-Modified", () => {
    expect(ifRangeAllows("Wed, 01 May 2024 12:00:00 GMT", '"abc"', new Date(NaN))).toBe(false);
  });
});

describe("Content-Range", () => {
  it.each<[number, number, number, string]>([
    [0, 0, 1, "bytes 0-0/1"],
    [0, 499, 1234, "bytes 0-499/1234"],
    [500, 1233, 1234, "bytes 500-1233/1234"],
    [6442450944, 6442450950, 6442450951, "bytes 6442450944-6442450950/6442450951"],
  ])("%i-%i of %i", (start, end, size, expected) => {
    expect(contentRange(start, end, size)).toBe(expected);
  });

  it.each<[number, string]>([
    [0, "bytes */0"],
    [1234, "bytes */1234"],
  ])("unsatisfied for %i bytes", (size, expected) => {
    expect(unsatisfiedRange(size)).toBe(expected);
  });
});

/** The body a caller would write: each head, the part's bytes, then the tail. */
function assemble(data: Buffer, body: ReturnType<typeof multipartByteranges>): Buffer {
  const chunks: Buffer[] = [];
  for (const part of body.parts) chunks.push(part.head, data.subarray(part.start, part.end + 1));
  chunks.push(body.tail);
  return Buffer.concat(chunks);
}

/** Reads a multipart/byteranges body back the way a client would (RFC 2046 delimiters). */
function parseMultipart(bytes: Buffer, boundary: string): Array<{ headers: string; body: Buffer }> {
  const text = bytes.toString("latin1");
  const open = `--${boundary}\r\n`;
  expect(text.startsWith(open)).toBe(true);
  expect(text.endsWith(`\r\n--${boundary}--\r\n`)).toBe(true);
  const inner = text.slice(open.length, text.length - `\r\n--${boundary}--\r\n`.length);
  return inner.split(`\r\n--${boundary}\r\n`).map((part) => {
    const split = part.indexOf("\r\n\r\n");
    return { headers: part.slice(0, split), body: Buffer.from(part.slice(split + 4), "latin1") };
  });
}

describe("multipartByteranges", () => {
  // Bytes that include CR, LF and "-" so that framing mistakes would show.
  const data = Buffer.from(Array.from({ length: 1000 }, (_, k) => (k * 7 + 3) % 256));

  it.each<[string, Array<[number, number]>, number, string]>([
    [
      "two small parts",
      [
        [0, 1],
        [5, 6],
      ],
      1000,
      "text/plain",
    ],
    [
      "first and last byte",
      [
        [0, 0],
        [999, 999],
      ],
      1000,
      "application/octet-stream",
    ],
    [
      "three parts, type with parameters",
      [
        [0, 9],
        [100, 199],
        [500, 999],
      ],
      1000,
      "text/html; charset=utf-8",
    ],
    [
      "no content type",
      [
        [10, 20],
        [30, 40],
      ],
      1000,
      "",
    ],
    [
      "a non-ASCII type parameter",
      [
        [1, 2],
        [3, 3],
      ],
      1000,
      'text/plain; title="café"',
    ],
    ["sixteen parts", Array.from({ length: 16 }, (_, k): [number, number] => [k * 60, k * 60 + 29]), 1000, "video/mp4"],
    [
      "parts of a smaller representation",
      [
        [0, 0],
        [2, 3],
      ],
      4,
      "image/png",
    ],
  ])("%s: Content-Length equals the assembled body", (_name, pairs, size, type) => {
    const ranges = pairs.map(([start, end]) => ({ start, end }));
    const body = multipartByteranges(ranges, size, type);
    const bytes = assemble(data.subarray(0, size), body);
    expect(bytes.length).toBe(body.length);
    expect(body.contentType).toBe(`multipart/byteranges; boundary=${body.boundary}`);
    expect(body.parts.map((p) => [p.start, p.end])).toEqual(pairs);

    const parts = parseMultipart(bytes, body.boundary);
    expect(parts).toHaveLength(pairs.length);
    parts.forEach((part, k) => {
      const [start, end] = pairs[k]!;
      const typeLine = type === "" ? "" : `Content-Type: ${Buffer.from(type, "utf8").toString("latin1")}\r\n`;
      expect(part.headers).toBe(`${typeLine}Content-Range: bytes ${start}-${end}/${size}`);
      expect(part.body.equals(data.subarray(start, end + 1))).toBe(true);
    });
  });

  it("frames the body exactly as RFC 9110 §14.6 shows", () => {
    const body = multipartByteranges(
      [
        { start: 0, end: 2 },
        { start: 7, end: 9 },
      ],
      10,
      "text/plain",
    );
    const bytes = assemble(Buffer.from("abcdefghij"), body).toString("latin1").replaceAll(body.boundary, "B");
    expect(bytes).toBe(
      "--B\r\nContent-Type: text/plain\r\nContent-Range: bytes 0-2/10\r\n\r\nabc" +
        "\r\n--B\r\nContent-Type: text/plain\r\nContent-Range: bytes 7-9/10\r\n\r\nhij" +
        "\r\n--B--\r\n",
    );
  });

  it("matches what parseRange returns", () => {
    const result = parseRange("bytes=-100,0-9,50-60,55-70", 1000);
    expect(result.kind).toBe("multi");
    if (result.kind !== "multi") return;
    const body = multipartByteranges(result.ranges, 1000, "text/plain");
    expect(assemble(data, body).length).toBe(body.length);
    expect(body.parts.map((p) => [p.start, p.end])).toEqual([
      [0, 9],
      [50, 70],
      [900, 999],
    ]);
  });

  it("uses a fresh 32-hex-digit boundary per response", () => {
    const boundaries = new Set(Array.from({ length: 50 }, () => multipartByteranges([{ start: 0, end: 0 }], 1, "text/plain").boundary));
    expect(boundaries.size).toBe(50);
    for (const boundary of boundaries) expect(boundary).toMatch(/^[0-9a-f]{32}$/);
  });

  it.each<[string, Array<{ start: number; end: number }>, number]>([
    ["end past the representation", [{ start: 0, end: 10 }], 10],
    ["start after end", [{ start: 5, end: 4 }], 10],
    ["negative start", [{ start: -1, end: 4 }], 10],
    ["fractional end", [{ start: 0, end: 1.5 }], 10],
    ["NaN", [{ start: NaN, end: 1 }], 10],
    ["any byte of an empty representation", [{ start: 0, end: 0 }], 0],
  ])("refuses %s", (_name, ranges, size) => {
    expect(() => multipartByteranges(ranges, size, "text/plain")).toThrow(RangeError);
  });
});
