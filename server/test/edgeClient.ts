// Requests to the edge over a real socket, with any Host header (fetch cannot set one).
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface EdgeResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  text: string;
}

export class EdgeClient {
  private server: http.Server | undefined;
  /** Set by the first call, so requests sent at once share one server. */
  private listening: Promise<number> | undefined;

  /** `createServer`: Berth's HTTP server over the test server's edge (compose.ts). */
  constructor(private readonly createServer: (fallback: http.RequestListener) => http.Server) {}

  /** The port the edge listens on (started on first use), for tests that write raw bytes. */
  port(): Promise<number> {
    this.listening ??= new Promise((resolve) => {
      // The server Berth runs, so both the edge's own HTTP/1.1 layer and node:http are tested.
      const server = this.createServer((_req, res) => {
        res.statusCode = 421;
        res.end();
      });
      this.server = server;
      server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port));
    });
    return this.listening;
  }

  async get(host: string, path = "/", options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<EdgeResponse> {
    const port = await this.port();
    return new Promise((resolve, reject) => {
      const req = http.request({ host: "127.0.0.1", port, path, method: options.method ?? "GET", headers: { ...options.headers, host } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const body = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text: body.toString("utf8") });
        });
      });
      req.on("error", reject);
      req.end(options.body);
    });
  }

  async close(): Promise<void> {
    if (this.server) await new Promise((resolve) => this.server!.close(resolve));
  }
}
