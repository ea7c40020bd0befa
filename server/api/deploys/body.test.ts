// The deploy routes' body streams when the client goes away before sending the whole body.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Writable, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { FastifyRequest } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { bodyStream } from "./body";

describe("bodyStream", () => {
  let server: http.Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  /** A server whose route takes the body and reads none of it yet (as while it checks the deploy). */
  async function bodyOfDroppedRequest(): Promise<Readable> {
    let taken: (body: Readable) => void = () => undefined;
    const body = new Promise<Readable>((resolve) => (taken = resolve));
    server = http.createServer((req) => taken(bodyStream({ raw: req } as FastifyRequest)));
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const request = http.request({
      host: "127.0.0.1",
      port: (server.address() as AddressInfo).port,
      method: "PUT",
      headers: { "content-length": "100000" },
    });
    request.on("error", () => undefined);
    request.write(Buffer.alloc(1000));
    const stream = await body;
    request.destroy();
    if (!stream.destroyed) await new Promise((resolve) => stream.once("close", resolve));
    return stream;
  }

  it("closes early, with no error event for a route that has not read it yet, and its reader then fails", async () => {
    const body = await bodyOfDroppedRequest();
    expect(body.destroyed).toBe(true);
    expect(body.readableEnded).toBe(false);
    const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
    await expect(pipeline(body, sink)).rejects.toThrow(/premature close/i);
  });
});
