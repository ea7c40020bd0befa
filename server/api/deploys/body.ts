// Request bodies of the deploy routes, taken as streams: files go to the blob store as they
// arrive, and even the JSON manifest (up to DEPLOY_MANIFEST_MAX_BYTES) is read only once the
// route's guards have let the request through, never for a guest.
import { PassThrough, type Readable } from "node:stream";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { formatUploadLimit } from "../../../common/uploads";
import { AppError } from "../../errors";

/** Hands every body to the routes of `scope` unread, whatever its type. */
export function takeBodiesAsStreams(scope: FastifyInstance): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser("*", (_request, _payload, done) => done(null));
  // What a route left unread (a refusal before the bytes, a file already held) is read and
  // dropped after the answer, so the connection can carry the next request.
  scope.addHook("onResponse", async (request) => {
    if (request.raw.complete || request.raw.destroyed) return;
    request.raw.unpipe();
    request.raw.resume();
  });
}

/**
 * The body as a stream of its own: a consumer that gives up destroys this stream, not the
 * connection, so the refusal still reaches the client. A client that goes away halfway (or a
 * body the body timeout gave up on) closes it early, which its reader sees as a premature close:
 * pipe() alone would leave it open, and the reader waiting for ever with a temporary file open,
 * one per dropped upload. Closed without an error, since nobody may be listening for one (a
 * route that answered without reading), and an error event nobody hears ends the process.
 */
export function bodyStream(request: FastifyRequest): Readable {
  const raw = request.raw;
  const body = new PassThrough();
  raw.once("close", () => {
    if (!raw.complete) body.destroy();
  });
  return raw.pipe(body);
}

/** The media type without parameters, lowercase; "" when there is none. */
export function mediaType(request: FastifyRequest): string {
  return (request.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
}

/** Reads and parses a JSON body of at most `maxBytes`. */
export async function readJson(request: FastifyRequest, maxBytes: number): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of bodyStream(request)) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw new AppError("body_too_large", 413, `The request body is larger than ${formatUploadLimit(maxBytes)}`);
    chunks.push(chunk as Buffer);
  }
  if (size === 0) return {};
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown;
  } catch {
    throw new AppError("invalid_json", 400, "The request body is not valid JSON");
  }
}

/** The request's Content-Length, when it states one. */
export function declaredLength(request: FastifyRequest): number | undefined {
  const value = request.headers["content-length"];
  return value !== undefined && /^[0-9]{1,15}$/.test(value) ? Number(value) : undefined;
}
