// The native addon on its own, over real sockets: sealed copies and sends that stop when the
// socket's buffer is full. Built by the test run's global setup (scripts/build-native.mjs).
import { closeSync, ftruncateSync, openSync, readlinkSync, writeSync } from "node:fs";
import os from "node:os";
import { randomBytes } from "node:crypto";
import net from "node:net";
import v8 from "node:v8";
import vm from "node:vm";
import { afterEach, describe, expect, it } from "vitest";
import { kernelSend, KERNEL_SEND_MIN_BYTES, nativeMalloc, syncFilesystem, useNativeSend } from "./kernelSend";
import { seal, sealedCount, sealedFileOf, unseal } from "./sealedBodies";
import { socketPair } from "../../test/socketPair";

const addon = () => {
  if (!kernelSend) throw new Error("the native addon did not load: is dist/native/kernel_send.node built (cc and Node's headers)?");
  return kernelSend;
};

function fdOf(socket: net.Socket): number {
  return (socket as unknown as { _handle: { fd: number } })._handle.fd;
}

function collect(socket: net.Socket, bytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  return new Promise((resolve, reject) => {
    socket.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      total += chunk.length;
      if (total >= bytes) resolve(Buffer.concat(chunks));
    });
    socket.once("close", () => reject(new Error(`closed after ${total} of ${bytes} bytes`)));
  });
}

describe.runIf(process.platform === "linux")("the edge's native sends", () => {
  const cleanups: Array<() => void> = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
  });

  it("is built and loaded on Linux", () => {
    expect(addon().openFileLimit()).toBeGreaterThan(0);
  });

  it("makes a sealed copy: a Buffer with the same bytes over a memfd nobody can change", () => {
    const bytes = randomBytes(100_000);
    const [fd, view] = addon().sealedCopy(bytes);
    cleanups.push(() => closeSync(fd));
    expect(view.equals(bytes)).toBe(true);
    bytes[0] = bytes[0]! ^ 0xff;
    expect(view[0]).not.toBe(bytes[0]); // a copy, not the caller's memory
    expect(readlinkSync(`/proc/self/fd/${fd}`)).toMatch(/^\/memfd:berth-body/);
    expect(() => writeSync(fd, Buffer.from("x"), 0, 1, 0)).toThrow(/EPERM/);
    expect(() => ftruncateSync(fd, 10)).toThrow(/EPERM/);
    expect(() => addon().sealedCopy(Buffer.alloc(0))).toThrow(/at least one byte/);
  });

  it("sends a head and a body in order, whole, when the socket has room", async () => {
    const pair = await socketPair();
    cleanups.push(() => pair.close());
    const body = randomBytes(40_000);
    const [fd] = addon().sealedCopy(body);
    cleanups.push(() => closeSync(fd));
    const head = Buffer.from("HTTP/1.1 200 OK\r\ncontent-length: 40000\r\n\r\n");
    const received = collect(pair.client, head.length + body.length);
    expect(addon().sendHead(fdOf(pair.server), head, fd, body.length)).toBe(head.length + body.length);
    const bytes = await received;
    expect(bytes.subarray(0, head.length).equals(head)).toBe(true);
    expect(bytes.subarray(head.length).equals(body)).toBe(true);
  });

  it("stops when the socket's buffer is full, and the rest can follow through Node", async () => {
    const pair = await socketPair();
    cleanups.push(() => pair.close());
    pair.client.pause(); // a client that does not read yet
    const body = randomBytes(16 * 1024 * 1024);
    const [fd] = addon().sealedCopy(body);
    cleanups.push(() => closeSync(fd));
    const head = Buffer.from("HTTP/1.1 200 OK\r\n\r\n");
    const sent = addon().sendHead(fdOf(pair.server), head, fd, body.length);
    expect(sent).toBeGreaterThan(head.length);
    expect(sent).toBeLessThan(head.length + body.length);
    pair.server.write(body.subarray(sent - head.length));
    const received = collect(pair.client, head.length + body.length);
    pair.client.resume();
    const bytes = await received;
    expect(bytes.length).toBe(head.length + body.length);
    expect(bytes.subarray(head.length).equals(body)).toBe(true);
  });

  it("sends a buffer without blocking: all of it with room, part of it when the buffer is full", async () => {
    const pair = await socketPair();
    cleanups.push(() => pair.close());
    const small = randomBytes(3000);
    const received = collect(pair.client, small.length);
    expect(addon().sendBuffer(fdOf(pair.server), small)).toBe(small.length);
    expect((await received).equals(small)).toBe(true);
    pair.client.removeAllListeners("data");

    pair.client.pause();
    const big = randomBytes(16 * 1024 * 1024);
    const sent = addon().sendBuffer(fdOf(pair.server), big);
    expect(sent).toBeGreaterThan(0);
    expect(sent).toBeLessThan(big.length);
    pair.server.write(big.subarray(sent));
    const rest = collect(pair.client, big.length);
    pair.client.resume();
    expect((await rest).equals(big)).toBe(true);
  });

  it("reports a connection the peer has reset, as a negative errno", async () => {
    const pair = await socketPair();
    cleanups.push(() => pair.close());
    const [fd] = addon().sealedCopy(randomBytes(64 * 1024));
    cleanups.push(() => closeSync(fd));
    // Node must not read (and so close) the socket before the send sees the reset.
    const socketFd = fdOf(pair.server);
    pair.server.pause();
    pair.server.on("error", () => {});
    pair.client.resetAndDestroy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    // The first send after a reset may still be taken; the next one fails.
    let result = 0;
    for (let i = 0; i < 3 && result >= 0; i++) result = addon().sendHead(socketFd, Buffer.from("HTTP/1.1 200 OK\r\n\r\n"), fd, 64 * 1024);
    expect(result).toBeLessThan(0);
  });
});

describe.runIf(process.platform === "linux")("sealed bodies", () => {
  it("seals bodies from 16 KB, keeps smaller ones as they are, and closes the fd when let go", () => {
    const small = Buffer.alloc(KERNEL_SEND_MIN_BYTES - 1, 1);
    expect(seal(small)).toBe(small);
    expect(sealedFileOf(small)).toBeUndefined();

    const before = sealedCount();
    const bytes = randomBytes(KERNEL_SEND_MIN_BYTES);
    const view = seal(bytes);
    expect(view).not.toBe(bytes);
    expect(view.equals(bytes)).toBe(true);
    const fd = sealedFileOf(view)!;
    expect(readlinkSync(`/proc/self/fd/${fd}`)).toMatch(/^\/memfd:berth-body/);
    expect(sealedCount()).toBe(before + 1);

    unseal(view);
    expect(sealedFileOf(view)).toBeUndefined();
    expect(sealedCount()).toBe(before);
    expect(() => readlinkSync(`/proc/self/fd/${fd}`)).toThrow(/ENOENT/);
    expect(view.equals(bytes)).toBe(true); // the view outlives the fd
  });

  it("keeps every body as it is while BERTH_NATIVE_SEND is off, and seals again once it is on", () => {
    const bytes = randomBytes(KERNEL_SEND_MIN_BYTES);
    useNativeSend(false);
    try {
      expect(kernelSend).toBeUndefined();
      expect(seal(bytes)).toBe(bytes);
    } finally {
      useNativeSend(true);
    }
    const view = seal(bytes);
    expect(view).not.toBe(bytes);
    unseal(view);
  });
});

describe.runIf(process.platform === "linux")("the allocator's tuning", () => {
  it("fixes glibc's mmap threshold, and trimming gives freed heap pages back to the kernel", () => {
    const native = nativeMalloc;
    if (!native) throw new Error("the native addon did not load");
    expect(native.tuneMalloc()).toBe(true);
    // Blocks under the 128 KB threshold come from the heap; once freed, their pages can go back.
    let blocks: Buffer[] | undefined = Array.from({ length: 2_000 }, () => Buffer.allocUnsafeSlow(64 * 1024).fill(1));
    expect(blocks.length).toBe(2_000);
    blocks = undefined;
    v8.setFlagsFromString("--expose-gc");
    const gc = vm.runInNewContext("gc") as () => void;
    gc();
    gc();
    expect(native.trimMalloc()).toBe(true);
  });
});

describe.runIf(process.platform === "linux")("the addon's filesystem sync", () => {
  it("syncs the filesystem of an open descriptor off the main thread, and answers -errno for a bad one", async () => {
    if (!syncFilesystem) throw new Error("the native addon did not load, or was built without syncFilesystem");
    const fd = openSync(os.tmpdir(), "r");
    try {
      const pending = syncFilesystem(fd);
      expect(pending).toBeInstanceOf(Promise);
      expect(await pending).toBe(0);
    } finally {
      closeSync(fd);
    }
    expect(await syncFilesystem(fd)).toBe(-os.constants.errno.EBADF);
    expect(() => syncFilesystem!("3" as unknown as number)).toThrow(TypeError);
  });
});
