// pumpFile over a real loopback socket: every byte in order through a slow reader, the file
// closed whatever happens, and a client that leaves stops the reads.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { pumpFile } from "./filePump";

const content = randomBytes(3 * 1024 * 1024 + 12_345); // several chunks and a partial one
const HUGE_BYTES = 256 * 1024 * 1024; // sparse: no disk used

describe("pumpFile", () => {
  let dir: string;
  let file: string;
  /** Far more than loopback socket buffers hold (a few MB), so a client that never reads blocks it. */
  let huge: string;
  let server: net.Server;
  let port: number;
  const sockets: net.Socket[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "berth-pump-"));
    file = path.join(dir, "blob");
    writeFileSync(file, content);
    huge = path.join(dir, "huge");
    writeFileSync(huge, "");
    truncateSync(huge, HUGE_BYTES);
  });
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A server whose one connection gets `serve`; resolves with the server side's result. */
  function serving(serve: (socket: net.Socket) => Promise<void>): Promise<{ client: net.Socket; done: Promise<void> }> {
    return new Promise((resolve) => {
      let done!: Promise<void>;
      const accepted = new Promise<void>((acceptedResolve) => {
        server = net.createServer((socket) => {
          sockets.push(socket);
          socket.on("error", () => undefined); // a reset when the client leaves; EdgeConnection ignores it too
          done = serve(socket);
          acceptedResolve();
        });
      });
      server.listen(0, "127.0.0.1", () => {
        port = (server.address() as net.AddressInfo).port;
        const client = net.connect(port, "127.0.0.1");
        sockets.push(client);
        void accepted.then(() => resolve({ client, done }));
      });
    });
  }

  /** A handle whose close() is observed. */
  async function watchedHandle(name = file): Promise<{ handle: FileHandle; closed: () => boolean }> {
    const handle = await open(name, "r");
    let closed = false;
    const close = handle.close.bind(handle);
    handle.close = async () => {
      closed = true;
      return close();
    };
    return { handle, closed: () => closed };
  }

  it("sends every byte in order to a client that reads slowly, then closes the file", async () => {
    const { handle, closed } = await watchedHandle();
    const { client, done } = await serving((socket) => pumpFile(handle, content.length, socket));
    const received: Buffer[] = [];
    let total = 0;
    await new Promise<void>((resolve) => {
      client.on("data", (chunk: Buffer) => {
        received.push(chunk);
        total += chunk.length;
        // Reading in fits and starts keeps the server's writes waiting for 'drain'.
        client.pause();
        setTimeout(() => client.resume(), 1);
        if (total >= content.length) resolve();
      });
    });
    await done;
    expect(Buffer.concat(received).equals(content)).toBe(true);
    expect(closed()).toBe(true);
  });

  it("stops reading and closes the file when the client goes away", async () => {
    const { handle, closed } = await watchedHandle(huge);
    let reads = 0;
    const read = handle.read.bind(handle) as (...args: unknown[]) => Promise<{ bytesRead: number; buffer: Buffer }>;
    (handle as unknown as { read: typeof read }).read = (...args) => {
      reads++;
      return read(...args);
    };
    const { client, done } = await serving((socket) => pumpFile(handle, HUGE_BYTES, socket));
    // The client never reads: the socket's buffers fill, the pump waits, then the client leaves.
    client.pause();
    await new Promise((resolve) => setTimeout(resolve, 100));
    client.destroy();
    await expect(done).rejects.toMatchObject({ code: "ERR_STREAM_PREMATURE_CLOSE" });
    expect(closed()).toBe(true);
    expect(reads).toBeLessThan(HUGE_BYTES / (1024 * 1024));
  });

  it("fails, and closes the file, when the file is shorter than the size it was given", async () => {
    const { handle, closed } = await watchedHandle();
    const { client, done } = await serving((socket) => pumpFile(handle, content.length + 10, socket));
    client.resume();
    await expect(done).rejects.toThrow(/ended at byte/);
    expect(closed()).toBe(true);
  });
});
