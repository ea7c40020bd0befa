// A request body that makes no progress for a while is answered 408 and its connection closed, so
// a client that sends headers and part of a body and then nothing cannot hold a connection (and
// whatever the handler holds for it) for long. node:http's own requestTimeout is the wrong tool:
// it bounds the whole request (300 s by default), which both holds a stalled body that long and
// cuts off a slow upload that is still sending. This counts silence only: every byte the socket
// receives restarts the clock.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyBaseLogger } from "fastify";

const BODY = JSON.stringify({
  error: { code: "request_timeout", message: "The request body stopped arriving. Please try again." },
});
const RESPONSE =
  "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n" +
  `Content-Length: ${Buffer.byteLength(BODY)}\r\n\r\n${BODY}`;

/** Whether the request announces a body (a chunked one, or a Content-Length above 0). */
function hasBody(req: IncomingMessage): boolean {
  if (req.headers["transfer-encoding"] !== undefined) return true;
  const length = req.headers["content-length"];
  return length !== undefined && length !== "0";
}

/**
 * Silence is not the client's fault while the server is not reading: the body's buffer is full
 * because its consumer is waiting (a blob store that is slow to take an upload, say), and node
 * has stopped reading the socket until it drains.
 */
function serverIsBehind(req: IncomingMessage): boolean {
  return req.readableLength >= req.readableHighWaterMark;
}

/**
 * Watches `req`'s body until it has arrived in full. The socket's byte count is sampled four times
 * per `timeoutMs`, so a stall is noticed between 1 and 1.25 times `timeoutMs` after the last byte.
 */
export function watchBodyProgress(req: IncomingMessage, res: ServerResponse, timeoutMs: number, log: FastifyBaseLogger): void {
  if (!hasBody(req) || req.complete) return;
  const { socket } = req;
  const step = Math.max(10, Math.floor(timeoutMs / 4));
  let seen = socket.bytesRead;
  let progressAt = Date.now();
  const check = () => {
    if (req.complete || socket.destroyed) return;
    const now = Date.now();
    const read = socket.bytesRead;
    if (read !== seen || serverIsBehind(req)) {
      seen = read;
      progressAt = now;
    }
    if (now - progressAt < timeoutMs) {
      setTimeout(check, step).unref();
      return;
    }
    log.info(
      { method: req.method, url: req.url, remoteAddress: socket.remoteAddress },
      `request body made no progress for ${timeoutMs} ms: answered 408`,
    );
    // The answer goes straight to the socket, as node:http's own 408 does: written only while this
    // request's response owns the socket and has not started (a pipelined answer ahead of it, or
    // one already under way, would be corrupted). Then the connection is closed either way; the
    // handler sees its request aborted, and anything it writes later goes nowhere.
    if (res.socket === socket && !res.headersSent && socket.writable) socket.write(RESPONSE);
    socket.destroy();
  };
  // No listener on the socket to stop it: a keep-alive connection would collect one per request.
  // The check stops by itself once the body is complete or the socket gone.
  setTimeout(check, step).unref();
}
