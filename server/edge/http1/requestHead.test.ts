import { describe, expect, it } from "vitest";
import { MAX_HEAD_BYTES, parseRequestHead, type RequestHead } from "./requestHead";

const head = (text: string) => parseRequestHead(Buffer.from(text, "latin1"));
const parsed = (text: string) => {
  const result = head(text);
  if (typeof result === "string") throw new Error(`expected a request, got ${result}`);
  return result;
};

describe("parseRequestHead", () => {
  it("reads a plain GET", () => {
    const text = "GET /a/b.html?x=1 HTTP/1.1\r\nHost: abcde.localhost:8080\r\nAccept-Encoding: gzip, br\r\n\r\n";
    expect(parsed(text)).toEqual<RequestHead>({
      method: "GET",
      url: "/a/b.html?x=1",
      host: "abcde.localhost:8080",
      headers: { "accept-encoding": "gzip, br" },
      range: false,
      keepAlive: true,
      length: text.length,
    });
  });

  it("reads HEAD and the conditional fields, whatever their case, and trims spaces and tabs", () => {
    const result = parsed('HEAD / HTTP/1.1\r\nhOsT:\t h \t\r\nIF-NONE-MATCH: "a"\r\nIf-Modified-Since: Sun, 06 Nov 1994 08:49:37 GMT\r\n\r\n');
    expect(result.method).toBe("HEAD");
    expect(result.host).toBe("h");
    expect(result.headers).toEqual({ "if-none-match": '"a"', "if-modified-since": "Sun, 06 Nov 1994 08:49:37 GMT" });
  });

  it("joins repeated list fields, and keeps the first If-Modified-Since", () => {
    const result = parsed(
      'GET / HTTP/1.1\r\nHost: h\r\nIf-None-Match: "a"\r\nIf-None-Match: "b"\r\nAccept-Encoding: br\r\nAccept-Encoding: gzip\r\n' +
        "If-Modified-Since: first\r\nIf-Modified-Since: second\r\n\r\n",
    );
    expect(result.headers).toEqual({ "if-none-match": '"a", "b"', "accept-encoding": "br, gzip", "if-modified-since": "first" });
  });

  it("reads the User-Agent field (for share links' access log), keeping the first", () => {
    expect(parsed("GET / HTTP/1.1\r\nHost: h\r\nUser-Agent: Mozilla/5.0 (X11)\r\nuser-agent: second\r\n\r\n").headers).toEqual({
      "user-agent": "Mozilla/5.0 (X11)",
    });
  });

  it("reads Referer (the first) and X-Forwarded-For (joined) for analytics", () => {
    expect(
      parsed(
        "GET / HTTP/1.1\r\nHost: h\r\nReferer: https://a.example/\r\nreferer: https://b.example/\r\nX-Forwarded-For: 1.1.1.1\r\nx-forwarded-for: 2.2.2.2\r\n\r\n",
      ).headers,
    ).toEqual({ referer: "https://a.example/", "x-forwarded-for": "1.1.1.1, 2.2.2.2" });
  });

  it("reads the Cookie field, joining several with a semicolon as node:http does", () => {
    expect(parsed("GET / HTTP/1.1\r\nHost: h\r\nCookie: a=1\r\n\r\n").headers).toEqual({ cookie: "a=1" });
    const result = parsed("GET / HTTP/1.1\r\nHost: h\r\nCookie: a=1; b=2\r\ncookie:  c=3 \r\n\r\n");
    expect(result.headers).toEqual({ cookie: "a=1; b=2; c=3" });
  });

  it("measures the head only, so pipelined bytes stay for the next request", () => {
    const first = "GET /1 HTTP/1.1\r\nHost: h\r\n\r\n";
    expect(parsed(first + "GET /2 HTTP/1.1\r\n").length).toBe(first.length);
  });

  it("flags a Range field, which the fast path leaves to node:http", () => {
    expect(parsed("GET / HTTP/1.1\r\nHost: h\r\nRange: bytes=0-1\r\n\r\n").range).toBe(true);
  });

  it.each([
    ["HTTP/1.1 by default", "GET / HTTP/1.1\r\nHost: h\r\n\r\n", true],
    ["HTTP/1.1 with close", "GET / HTTP/1.1\r\nHost: h\r\nConnection: Close\r\n\r\n", false],
    ["HTTP/1.1 with close among tokens", "GET / HTTP/1.1\r\nHost: h\r\nConnection: foo, close\r\n\r\n", false],
    ["HTTP/1.0 by default", "GET / HTTP/1.0\r\nHost: h\r\n\r\n", false],
    ["HTTP/1.0 with keep-alive", "GET / HTTP/1.0\r\nHost: h\r\nConnection: Keep-Alive\r\n\r\n", true],
  ])("keeps the connection or not: %s", (_name, text, keepAlive) => {
    expect(parsed(text).keepAlive).toBe(keepAlive);
  });

  it("accepts Content-Length: 0, which means no body", () => {
    expect(parsed("GET / HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\n\r\n").url).toBe("/");
  });

  it("waits for the rest of a head", () => {
    expect(head("")).toBe("incomplete");
    expect(head("GET / HTTP/1.1\r\nHost: h\r\n")).toBe("incomplete");
    expect(head("GET / HTTP/1.1\r\nHost: h\r\n\r")).toBe("incomplete");
  });

  it("does not wait for a head whose lines end in a bare LF or CR: node:http answers it", () => {
    expect(head("GET / HTTP/1.1\nHost: h\n\n")).toBe("unsupported");
    expect(head("GET / HTTP/1.1\r\nHost: h\n")).toBe("unsupported");
    expect(head("GET / HTTP/1.1\rHost: h")).toBe("unsupported");
  });

  it.each([
    ["a method other than GET or HEAD", "POST / HTTP/1.1\r\nHost: h\r\n\r\n"],
    ["a lower-case method", "get / HTTP/1.1\r\nHost: h\r\n\r\n"],
    ["an absolute-form target", "GET http://h/ HTTP/1.1\r\nHost: h\r\n\r\n"],
    ["the asterisk form", "GET * HTTP/1.1\r\nHost: h\r\n\r\n"],
    ["HTTP/2 preface", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"],
    ["another version", "GET / HTTP/1.2\r\nHost: h\r\n\r\n"],
    ["HTTP/0.9", "GET /\r\n\r\n"],
    ["two spaces", "GET  / HTTP/1.1\r\nHost: h\r\n\r\n"],
    ["a space in the target", "GET /a b HTTP/1.1\r\nHost: h\r\n\r\n"],
    ["a tab in the target", "GET /a\tb HTTP/1.1\r\nHost: h\r\n\r\n"],
    ["a leading empty line", "\r\nGET / HTTP/1.1\r\nHost: h\r\n\r\n"],
    ["no Host in HTTP/1.1", "GET / HTTP/1.1\r\nAccept: */*\r\n\r\n"],
    ["no Host in HTTP/1.0", "GET / HTTP/1.0\r\n\r\n"],
    ["two Host fields", "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"],
    ["a body length", "GET / HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhello"],
    ["two body lengths", "GET / HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\nContent-Length: 0\r\n\r\n"],
    ["a transfer coding", "GET / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"],
    ["Expect", "GET / HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\n\r\n"],
    ["Upgrade", "GET / HTTP/1.1\r\nHost: h\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n"],
    ["a space before the colon", "GET / HTTP/1.1\r\nHost : h\r\n\r\n"],
    ["obs-fold", "GET / HTTP/1.1\r\nHost: h\r\nX-A: 1\r\n 2\r\n\r\n"],
    ["a line without a colon", "GET / HTTP/1.1\r\nHost: h\r\nnonsense\r\n\r\n"],
    ["an empty field name", "GET / HTTP/1.1\r\nHost: h\r\n: x\r\n\r\n"],
    ["a bare LF", "GET / HTTP/1.1\nHost: h\r\n\r\n"],
    ["a bare CR", "GET / HTTP/1.1\r\nHost: h\rX: y\r\n\r\n"],
    ["a NUL byte", "GET / HTTP/1.1\r\nHost: h\0\r\n\r\n"],
    ["a control byte in a value", "GET / HTTP/1.1\r\nHost: h\r\nX: a\x01b\r\n\r\n"],
    ["a byte above 0x7E", "GET / HTTP/1.1\r\nHost: h\r\nX: caf\xe9\r\n\r\n"],
    ["a DEL byte", "GET /\x7f HTTP/1.1\r\nHost: h\r\n\r\n"],
  ])("hands over %s", (_name, text) => {
    expect(head(text)).toBe("unsupported");
    // Input of more than 2 KB (pipelined requests behind this one) takes the other search.
    const queued = `GET /next HTTP/1.1\r\nHost: h\r\nX: ${"a".repeat(3000)}\r\n\r\n`;
    expect(head(text + queued)).toBe("unsupported");
  });

  it("reads a head the same way with more than 2 KB queued behind it", () => {
    const first = "GET /1 HTTP/1.1\r\nHost: h\r\nAccept-Encoding: br\r\n\r\n";
    const queued = `GET /2 HTTP/1.1\r\nHost: h\r\nX: ${"a".repeat(3000)}\r\n\r\n`;
    const r = parsed(first + queued);
    expect([r.url, r.host, r.headers["accept-encoding"], r.length]).toEqual(["/1", "h", "br", first.length]);
    expect(parsed(queued).url).toBe("/2");
  });

  it("hands over heads past the size limit, finished or not", () => {
    const long = `GET / HTTP/1.1\r\nHost: h\r\nX: ${"a".repeat(MAX_HEAD_BYTES)}`;
    expect(head(long)).toBe("unsupported");
    expect(head(`${long}\r\n\r\n`)).toBe("unsupported");
  });

  it("hands over a head with too many fields", () => {
    const fields = Array.from({ length: 101 }, (_, i) => `X-${i}: ${i}\r\n`).join("");
    expect(head(`GET / HTTP/1.1\r\nHost: h\r\n${fields}\r\n`)).toBe("unsupported");
  });
});
