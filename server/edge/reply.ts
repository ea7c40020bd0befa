// What the edge reads from a request and how it answers, whichever HTTP layer carries them:
// the edge's own HTTP/1.1 writer (http1/connection.ts, the fast path) or node:http (requests
// that layer hands over: Range, bodies, unusual syntax).
import type { OutgoingHttpHeaders, ServerResponse } from "node:http";
import type { FileHandle } from "node:fs/promises";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

/** The request fields the edge reads. node:http's IncomingMessage is one. */
export interface EdgeRequest {
  readonly method?: string | undefined;
  readonly url?: string | undefined;
  readonly headers: EdgeRequestHeaders;
}

export interface EdgeRequestHeaders {
  readonly "accept-encoding"?: string | undefined;
  readonly "if-none-match"?: string | undefined;
  readonly "if-modified-since"?: string | undefined;
  /** Read only on password-protected hosts. */
  readonly cookie?: string | undefined;
  /** Read when a share link is opened (its access log), and by analytics. */
  readonly "user-agent"?: string | undefined;
  /** Read by analytics only. */
  readonly referer?: string | undefined;
  /** Read by analytics, and only behind a trusted proxy. */
  readonly "x-forwarded-for"?: string | undefined;
}

/** The site a request turned out to be for: what analytics counts it under. */
export interface ServedSite {
  readonly siteId: string;
  /** A {sub}--v{n} host. */
  readonly versionHost: boolean;
}

/** One answer. `headers` objects are often reused across requests: never mutate them. */
export interface EdgeReply {
  readonly headersSent: boolean;
  /** Set by the handler as soon as it knows the site; unset, the request is not counted. */
  served: ServedSite | undefined;
  /**
   * Set by the handler once it has found the path's route: the path as the route table keeps it
   * (no query), which analytics counts the request under. Unset, analytics cuts the request's URL.
   */
  path: string | undefined;
  /** A complete answer; no body for HEAD, 304 or an empty file. */
  send(status: number, headers: OutgoingHttpHeaders, body?: Buffer): void;
  /**
   * Headers, then the body from a stream, waiting for the client whenever its buffer is full.
   * A client that goes away destroys the stream; the promise then rejects.
   */
  stream(status: number, headers: OutgoingHttpHeaders, body: Readable): Promise<void>;
  /**
   * Like `stream`, from a local file's first `size` bytes (BlobStore.openFile); closes `file`.
   * Only the edge's own HTTP/1.1 layer has it.
   */
  streamFile?(status: number, headers: OutgoingHttpHeaders, file: FileHandle, size: number): Promise<void>;
  /** Drops the connection: for an error after the headers went out. */
  destroy(): void;
}

/**
 * writeHead(status, headers) on a response with no header set yet keeps them out of getHeader(),
 * where analytics reads the type once the answer is finished (handler.ts): a page served here
 * would not count as a view. One header set first makes writeHead merge them all in.
 */
function writeHead(res: ServerResponse, status: number, headers: OutgoingHttpHeaders): void {
  const type = headers["content-type"];
  if (type !== undefined) res.setHeader("content-type", type);
  res.writeHead(status, headers);
}

export function nodeReply(res: ServerResponse): EdgeReply {
  return {
    served: undefined,
    path: undefined,
    get headersSent() {
      return res.headersSent;
    },
    send(status, headers, body) {
      writeHead(res, status, headers);
      res.end(body);
    },
    stream(status, headers, body) {
      writeHead(res, status, headers);
      return pipeline(body, res);
    },
    destroy() {
      res.destroy();
    },
  };
}
