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

/** As much as node itself offers a read (libuv's suggested size). */
const READ_BYTES = 64 * 1024;
const shared = Buffer.allocUnsafeSlow(READ_BYTES);

/** Gets `length` bytes at the start of the shared buffer; false stops reading (as pause()). */
export type ReadCallback = (length: number, buffer: Buffer) => boolean;

interface SocketFields {
  _handle?: { useUserBuffer?: (buffer: Uint8Array) => void; constructor: { name: string } } | null;
  [field: symbol]: unknown;
}

/** net.Socket's private fields for `onread`, by their descriptions; undefined if this node has none. */
function onreadFields(socket: Socket): { buffer: symbol; callback: symbol } | undefined {
  let buffer: symbol | undefined;
  let callback: symbol | undefined;
  for (const field of Object.getOwnPropertySymbols(socket)) {
    if (field.description === "kBuffer") buffer = field;
    else if (field.description === "kBufferCb") callback = field;
  }
  return buffer !== undefined && callback !== undefined ? { buffer, callback } : undefined;
}

/**
 * From now on `socket`'s reads go to `callback` in the shared buffer, not to 'data'. Returns false
 * (and changes nothing) when this node or this socket cannot: the caller listens to 'data' instead.
 * pause() and resume() keep working (net.Socket stops and starts the handle for such sockets);
 * the end of input still emits 'end'.
 */
export function readIntoSharedBuffer(socket: Socket, callback: ReadCallback): boolean {
  const fields = onreadFields(socket);
  const handle = (socket as unknown as SocketFields)._handle;
  if (fields === undefined || handle == null || typeof handle.useUserBuffer !== "function" || handle.constructor.name !== "TCP") return false;
  const own = socket as unknown as SocketFields;
  own[fields.buffer] = shared;
  own[fields.callback] = callback;
  handle.useUserBuffer(shared);
  return true;
}

/**
 * After readIntoSharedBuffer: the socket's reads go to its own stream again, as copies, for a new
 * owner that reads it the usual way (node:http after a hand-off). node:http may also read the
 * handle directly; then this callback is simply not called.
 */
export function readIntoStream(socket: Socket): void {
  const fields = onreadFields(socket);
  if (fields === undefined || (socket as unknown as SocketFields)[fields.buffer] !== shared) return;
  const forward: ReadCallback = (length, buffer) => socket.push(Buffer.from(buffer.subarray(0, length)));
  (socket as unknown as SocketFields)[fields.callback] = forward;
}

/** `bytes` if they are not in the shared buffer, else a copy: for bytes kept past a read's callback. */
export function kept(bytes: Buffer): Buffer {
  return bytes.buffer === shared.buffer ? Buffer.from(bytes) : bytes;
}
