// What the edge's HTTP/1.1 layer reads of node's socket internals (`_handle`, stable since Node
// 12, not public): one place that decides which sockets the fast path may touch below Node.
import type { Socket } from "node:net";

export interface TcpHandle {
  fd?: number;
  writeQueueSize: number;
  useUserBuffer?: (buffer: Uint8Array) => void;
}

interface SocketInternals {
  _handle?: TcpHandle | null;
  encrypted?: boolean;
}

/** The socket's handle now, or null once it is destroyed. */
export function handleOf(socket: Socket): TcpHandle | null | undefined {
  return (socket as unknown as SocketInternals)._handle;
}

/** The handle of a plain TCP connection; undefined for TLS, pipes or a socket without one. */
export function plainTcpHandle(socket: Socket): TcpHandle | undefined {
  const { _handle: handle, encrypted } = socket as unknown as SocketInternals;
  return !encrypted && handle != null && handle.constructor.name === "TCP" ? handle : undefined;
}
