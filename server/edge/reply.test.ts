// node:http's reply: analytics reads the answer's type from the response once it is finished, so
// the type must be there even though the edge's headers go out in one writeHead call.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { afterAll, beforeAll, expect, it } from "vitest";
import { nodeReply } from "./reply";

let server: http.Server;
let port = 0;
const seen: Array<unknown> = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    res.once("finish", () => seen.push(res.getHeader("content-type")));
    const reply = nodeReply(res);
    const headers = { "content-type": "text/html; charset=utf-8", "cache-control": "no-cache" };
    if (req.url === "/stream") void reply.stream(200, headers, Readable.from([Buffer.from("<p>streamed</p>")]));
    else reply.send(200, headers, Buffer.from("<p>sent</p>"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

it("keeps the content type readable after a send and a stream, with every header sent", async () => {
  for (const path of ["/", "/stream"]) {
    const response = await fetch(`http://127.0.0.1:${port}${path}`);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-cache");
    await response.text();
  }
  await expect.poll(() => seen.length).toBe(2);
  expect(seen).toEqual(["text/html; charset=utf-8", "text/html; charset=utf-8"]);
});
