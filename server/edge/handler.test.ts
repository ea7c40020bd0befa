import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEdgeHandler } from "./handler";

describe("the edge before sites exist", () => {
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    server = http.createServer(createEdgeHandler());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const request = (method: string) =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
      const req = http.request({ port, method, path: "/", headers: { host: `abcde.localhost:${port}` } }, (res) => {
        let body = "";
        res.on("data", (chunk: Buffer) => (body += chunk.toString()));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      });
      req.on("error", reject);
      req.end();
    });

  it("answers a clean, branded 404", async () => {
    const response = await request("GET");
    expect(response.status).toBe(404);
    expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    expect(response.body).toContain("Site not found");
    expect(Number(response.headers["content-length"])).toBe(Buffer.byteLength(response.body));
  });

  it("answers HEAD without a body", async () => {
    const response = await request("HEAD");
    expect(response.status).toBe(404);
    expect(response.body).toBe("");
  });
});
