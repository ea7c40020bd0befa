// Reads into one buffer of ours instead of a fresh one per read. For every read of a socket, node
// allocates 64 KB (malloc), shrinks it to what arrived, wraps it in an ArrayBuffer and a Buffer,
// and pushes that through the Readable stream's machinery to a 'data' listener: in the many case
// of bench:edge about as much CPU as the edge's own work on a request. Node offers the cure,
// `onread` (a user buffer and a callback), to sockets it connects but not to the ones a server
// accepts; so it is set up on the accepted socket here exactly as net.Socket's constructor does
// it: the socket's kBuffer and kBufferCb fields, then handle.useUserBuffer().
//
// One buffer serves every connection. A read's callback runs synchronously, before libuv reads
// anything else, so the bytes are valid until the callback returns: a caller that keeps some of
// them for later must copy them (see `kept`).
import type { Socket } from "node:net";
import { plainTcpHandle } from "./socketHandle";

/** As much as node itself offers a read (libuv's suggested size). */
const READ_BYTES = 64 * 1024;
const shared = Buffer.allocUnsafeSlow(READ_BYTES);

/** Gets `length` bytes at the start of the shared buffer; false stops reading (as pause()). */
export type ReadCallback = (length: number, buffer: Buffer) => boolean;

type SocketFields = Record<symbol, unknown>;

/**
 * net.Socket's private fields for `onread`, found by their descriptions on the first socket seen
 * (they are the same symbols for every socket); null if this node has none.
 */
let fields: { buffer: symbol; callback: symbol } | null | undefined;

function onreadFields(socket: Socket): { buffer: symbol; callback: symbol } | null {
  if (fields !== undefined) return fields;
  let buffer: symbol | undefined;
  let callback: symbol | undefined;
  for (const field of Object.getOwnPropertySymbols(socket)) {
    if (field.description === "kBuffer") buffer = field;
    else if (field.description === "kBufferCb") callback = field;
  }
  fields = buffer !== undefined && callback !== undefined ? { buffer, callback } : null;
  return fields;
}

/**
 * From now on `socket`'s reads go to `callback` in the shared buffer, not to 'data'. Returns false
 * (and changes nothing) when this node or this socket cannot: the caller listens to 'data' instead.
 * pause() and resume() keep working (net.Socket stops and starts the handle for such sockets);
 * the end of input still emits 'end'.
 */
export function readIntoSharedBuffer(socket: Socket, callback: ReadCallback): boolean {
  const handle = plainTcpHandle(socket);
  if (handle?.useUserBuffer === undefined) return false;
  const own = onreadFields(socket);
  if (own === null) return false;
  (socket as unknown as SocketFields)[own.buffer] = shared;
  (socket as unknown as SocketFields)[own.callback] = callback;
  handle.useUserBuffer(shared);
  return true;
}

/**
 * After readIntoSharedBuffer: the socket's reads go to its own stream again, as copies, for a new
 * owner that reads it the usual way (node:http after a hand-off). node:http may also read the
 * handle directly; then this callback is simply not called.
 */
export function readIntoStream(socket: Socket): void {
  const own = onreadFields(socket);
  if (own === null || (socket as unknown as SocketFields)[own.buffer] !== shared) return;
  const forward: ReadCallback = (length, buffer) => socket.push(Buffer.from(buffer.subarray(0, length)));
  (socket as unknown as SocketFields)[own.callback] = forward;
}

/** `bytes` if they are not in the shared buffer, else a copy: for bytes kept past a read's callback. */
export function kept(bytes: Buffer): Buffer {
  return bytes.buffer === shared.buffer ? Buffer.from(bytes) : bytes;
}
