import { describe, expect, it } from "vitest";
import { httpDate, isNotModified, parseHttpDate } from "./conditional";

// Last-Modified carries milliseconds that the HTTP-date cannot: comparisons are per second.
const LAST_MODIFIED = new Date("2024-05-01T12:00:00.750Z");
const SAME_SECOND = "Wed, 01 May 2024 12:00:00 GMT";
const SECOND_BEFORE = "Wed, 01 May 2024 11:59:59 GMT";
const LATER = "Thu, 02 May 2024 00:00:00 GMT";

describe("isNotModified", () => {
  it.each<[string, string | undefined, string | undefined, boolean]>([
    ["no validators", undefined, undefined, false],
    ["the same strong tag", '"abc"', undefined, true],
    ["a weak tag (weak comparison)", 'W/"abc"', undefined, true],
    ["another tag", '"xyz"', undefined, false],
    ["a list ending with ours", '"xyz", "abc"', undefined, true],
    ["a list, ours weak, no spaces", '"xyz",W/"abc"', undefined, true],
    ["a list with tabs and spaces", '\t"xyz" ,\t "abc"  ', undefined, true],
    ["a list without ours", '"x", W/"y", "z"', undefined, false],
    ["empty list members", ', ,"abc",', undefined, true],
    ["*", "*", undefined, true],
    ["* with whitespace", "  *  ", undefined, true],
    ["* inside a list", '"xyz", *', undefined, true],
    ["*x is not *", "*x", undefined, false],
    ["an unquoted tag", "abc", undefined, false],
    ["a lower-case weak prefix", 'w/"abc"', undefined, false],
    ["a prefix of ours", '"ab"', undefined, false],
    ["a longer tag", '"abcd"', undefined, false],
    ["a tag without its closing quote", '"abc', undefined, false],
    ["junk after a tag", '"abc"x', undefined, false],
    ["junk after a tag, then ours", '"abc"x, "abc"', undefined, true],
    ["a tag with a comma inside, then ours", '"a,b", "abc"', undefined, true],
    ["a malformed member, then ours", 'abc, "abc"', undefined, true],
    ["an empty field", "", undefined, false],
    ["INM absent: IMS of the same second", undefined, SAME_SECOND, true],
    ["INM absent: IMS a second earlier", undefined, SECOND_BEFORE, false],
    ["INM absent: IMS later", undefined, LATER, true],
    ["INM absent: IMS far in the future", undefined, "Fri, 01 Jan 2100 00:00:00 GMT", true],
    ["INM absent: IMS invalid", undefined, "yesterday", false],
    ["INM absent: IMS empty", undefined, "", false],
    ["INM absent: IMS in another zone", undefined, "Wed, 01 May 2024 12:00:00 UTC", false],
    ["INM absent: IMS with two dates", undefined, `${SAME_SECOND}, ${LATER}`, false],
    ["INM absent: IMS as RFC 850", undefined, "Wednesday, 01-May-24 12:00:00 GMT", true],
    ["INM absent: IMS as asctime", undefined, "Wed May  1 12:00:00 2024", true],
    ["INM absent: IMS as ISO 8601", undefined, "2024-05-01T12:00:00Z", false],
    ["INM matches, IMS older: INM decides", '"abc"', SECOND_BEFORE, true],
    ["INM differs, IMS later: IMS ignored", '"xyz"', LATER, false],
    ["INM empty, IMS later: IMS ignored", "", LATER, false],
    ["INM malformed, IMS later: IMS ignored", "abc", LATER, false],
  ])("%s", (_name, ifNoneMatch, ifModifiedSince, expected) => {
    expect(isNotModified({ ifNoneMatch, ifModifiedSince }, '"abc"', LAST_MODIFIED)).toBe(expected);
  });

  it.each<[string, string, boolean]>([
    ['W/"abc"', '"abc"', true],
    ['W/"abc"', 'W/"abc"', true],
    ['W/"abc"', '"ab"', false],
    ['"a,b"', '"a,b"', true],
    ['"a,b"', '"a"', false],
    ['""', '""', true],
    ['""', '"x", ""', true],
  ])("our tag %s against If-None-Match %s", (etag, ifNoneMatch, expected) => {
    expect(isNotModified({ ifNoneMatch, ifModifiedSince: undefined }, etag, LAST_MODIFIED)).toBe(expected);
  });

  it("is false for an invalid Last-Modified", () => {
    expect(isNotModified({ ifNoneMatch: undefined, ifModifiedSince: LATER }, '"abc"', new Date(NaN))).toBe(false);
  });
});

describe("parseHttpDate", () => {
  const nov6 = Date.UTC(1994, 10, 6, 8, 49, 37);
  it.each<[string, number]>([
    ["Sun, 06 Nov 1994 08:49:37 GMT", nov6],
    ["  Sun, 06 Nov 1994 08:49:37 GMT\t", nov6],
    ["Sunday, 06-Nov-94 08:49:37 GMT", nov6],
    ["Sun Nov  6 08:49:37 1994", nov6],
    ["Sun Nov 06 08:49:37 1994", nov6],
    // The weekday is not checked against the date (the RFC does not ask recipients to).
    ["Mon, 06 Nov 1994 08:49:37 GMT", nov6],
    ["Thu, 01 Jan 1970 00:00:00 GMT", 0],
    ["Wed, 31 Dec 1969 23:59:59 GMT", -1000],
    ["Tue, 29 Feb 2000 00:00:00 GMT", Date.UTC(2000, 1, 29)],
    ["Thu, 29 Feb 2024 23:59:59 GMT", Date.UTC(2024, 1, 29, 23, 59, 59)],
    ["Fri, 31 Dec 9999 23:59:59 GMT", Date.UTC(9999, 11, 31, 23, 59, 59)],
    ["Sat, 31 Dec 2016 23:59:60 GMT", Date.UTC(2017, 0, 1)],
    ["Mon, 01 Jan 0001 00:00:00 GMT", new Date("0001-01-01T00:00:00Z").getTime()],
    ["Mon, 01 Jan 0099 00:00:00 GMT", new Date("0099-01-01T00:00:00Z").getTime()],
  ])("%s", (value, expected) => {
    expect(parseHttpDate(value)).toBe(expected);
  });

  it.each([
    "",
    "   ",
    "Sun, 06 Nov 1994 08:49:37 gmt",
    "sun, 06 Nov 1994 08:49:37 GMT",
    "Sun, 06 nov 1994 08:49:37 GMT",
    "Sun, 6 Nov 1994 08:49:37 GMT",
    "Sun,  06 Nov 1994 08:49:37 GMT",
    "Sun, 06 Nov 94 08:49:37 GMT",
    "Sun, 06 Nov 1994 08:49:37 +0000",
    "Sun, 06 Nov 1994 08:49 GMT",
    "Sun, 06 Nov 1994 8:49:37  GMT",
    "Sun, 06 Xyz 1994 08:49:37 GMT",
    "Xyz, 06 Nov 1994 08:49:37 GMT",
    "Sun, 00 Nov 1994 08:49:37 GMT",
    "Sun, 31 Nov 1994 08:49:37 GMT",
    "Sun, 31 Feb 1994 08:49:37 GMT",
    "Sun, 29 Feb 1900 08:49:37 GMT",
    "Sun, 29 Feb 1993 08:49:37 GMT",
    "Sun, 06 Nov 1994 24:00:00 GMT",
    "Sun, 06 Nov 1994 08:60:00 GMT",
    "Sun, 06 Nov 1994 08:49:61 GMT",
    "Sun, 06 Nov 1994 08-49-37 GMT",
    "Sun, 06 Nov 199x 08:49:37 GMT",
    "Sun, 06 Nov 1994 08:49:37 GMT, Mon, 07 Nov 1994 08:49:37 GMT",
    "Sunday, 06-Nov-1994 08:49:37 GMT",
    "Sunday, 06 Nov 94 08:49:37 GMT",
    "Sun, 06-Nov-94 08:49:37 GMT",
    "Sun Nov 6 08:49:37 1994",
    "Sun Nov  6 08:49:37 94",
    "1994-11-06T08:49:37Z",
    "784111777",
  ])("%j is not an HTTP-date", (value) => {
    expect(parseHttpDate(value)).toBeNaN();
  });

  it("reads a two-digit year as at most 50 years ahead (§5.6.7)", () => {
    const now = new Date().getUTCFullYear();
    const soon = (now + 10) % 100;
    const far = (now + 60) % 100;
    const two = (n: number) => String(n).padStart(2, "0");
    expect(new Date(parseHttpDate(`Monday, 01-Jan-${two(soon)} 00:00:00 GMT`)).getUTCFullYear()).toBe(now + 10);
    expect(new Date(parseHttpDate(`Monday, 01-Jan-${two(far)} 00:00:00 GMT`)).getUTCFullYear()).toBe(now - 40);
    expect(new Date(parseHttpDate(`Monday, 01-Jan-${two(now % 100)} 00:00:00 GMT`)).getUTCFullYear()).toBe(now);
  });
});

describe("httpDate", () => {
  it.each<[number, string]>([
    [784111777000, "Sun, 06 Nov 1994 08:49:37 GMT"],
    [784111777999, "Sun, 06 Nov 1994 08:49:37 GMT"],
    [0, "Thu, 01 Jan 1970 00:00:00 GMT"],
    [-1, "Wed, 31 Dec 1969 23:59:59 GMT"],
    [Date.UTC(2024, 1, 29, 9, 5, 3), "Thu, 29 Feb 2024 09:05:03 GMT"],
    [Date.UTC(9999, 11, 31, 23, 59, 59), "Fri, 31 Dec 9999 23:59:59 GMT"],
  ])("%i → %s", (ms, expected) => {
    expect(httpDate(new Date(ms))).toBe(expected);
  });

  it("pads years below 1000 to four digits", () => {
    const date = new Date(0);
    date.setUTCFullYear(50, 0, 2);
    expect(httpDate(date)).toBe("Sun, 02 Jan 0050 00:00:00 GMT");
    expect(parseHttpDate(httpDate(date))).toBe(date.getTime());
  });

  it("agrees with toUTCString and round-trips through parseHttpDate, across cache slots", () => {
    // Pairs 64 seconds apart share a cache slot, so alternating them exercises replacement.
    let seed = 7;
    for (let k = 0; k < 2000; k++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      const ms = (seed % 4_000_000) * 1000 * (k % 3 === 0 ? 64 : 997) + (k % 1000);
      const date = new Date(ms);
      expect(httpDate(date)).toBe(date.toUTCString());
      expect(httpDate(new Date(ms + 64_000))).toBe(new Date(ms + 64_000).toUTCString());
      expect(httpDate(date)).toBe(date.toUTCString());
      expect(parseHttpDate(httpDate(date))).toBe(Math.floor(ms / 1000) * 1000);
    }
  });

  it("refuses dates it cannot express", () => {
    expect(() => httpDate(new Date(NaN))).toThrow(RangeError);
    expect(() => httpDate(new Date(Date.UTC(10000, 0, 1)))).toThrow(RangeError);
    expect(() => httpDate(new Date(Date.UTC(-1, 0, 1)))).toThrow(RangeError);
  });
});
