import type { IncomingMessage } from "node:http";

/**
 * Whether the client went away before its request arrived in full: an upload cancelled or cut
 * off, or a body the body timeout gave up on. Reading such a body fails (node's "aborted", or a
 * multipart parser's "unexpected end"), but the failure is the client's choice, not a fault of
 * the server: it is logged at info, without a stack, and nobody is left to answer.
 */
export function requestAborted(req: IncomingMessage): boolean {
  return !req.complete && (req.destroyed || req.socket.destroyed);
}
