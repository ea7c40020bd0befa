// Writing one file of a deployment: conditional requests, ranges, compression and caching
// headers, then the bytes from memory (small files) or streamed from the blob store. The
// headers of each answer are built once per host and path (prepareFile), not per request.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import { pipeline } from "node:stream/promises";
import type { BlobStore } from "../storage/blobStore";
import type { BlobCache } from "./blobCache";
import type { Manifest, ManifestFile, Variant } from "./manifest";
import { nodeReply, type EdgeReply, type EdgeRequest } from "./reply";
import { isNotModified, httpDate } from "../http/conditional";
import { contentRange, ifRangeAllows, multipartByteranges, parseRange, unsatisfiedRange } from "./range";
import { chooseEncoding, type Encoding } from "../http/encoding";
import { IMMUTABLE_CACHE, LIVE_CACHE } from "../../common/siteCaching";

// A name carrying a content hash (app.3f9a2c1b.js, index-CnHfVklN.js) never changes content.
const FINGERPRINTED =
  /[.-](?=[A-Za-z0-9_]*\d)(?=[A-Za-z0-9_]*[A-Za-z])[A-Za-z0-9_]{8,}\.(?:js|mjs|css|woff2?|ttf|otf|png|jpe?g|gif|svg|webp|avif|wasm|map)$/;

export function cacheControlFor(path: string, versionHost: boolean): string {
  return versionHost || FINGERPRINTED.test(path) ? IMMUTABLE_CACHE : LIVE_CACHE;
}

export interface RespondDeps {
  blobs: BlobStore;
  cache: BlobCache;
}

/** A file answer with its headers worked out: one header object per encoding on offer. */
export interface PreparedFile {
  file: ManifestFile;
  /** 200 normally; 404 when this file is the site's own 404 page. */
  status: number;
  lastModified: Date;
  base: OutgoingHttpHeaders;
  byEncoding: Record<Encoding, OutgoingHttpHeaders | undefined>;
  notModified: OutgoingHttpHeaders;
}

export function prepareFile(
  file: ManifestFile,
  manifest: Manifest,
  versionHost: boolean,
  status: number,
  extraHeaders: Array<[string, string]>,
): PreparedFile {
  const base: OutgoingHttpHeaders = {
    "content-type": file.contentType,
    etag: file.etag,
    "last-modified": httpDate(manifest.publishedAt),
    "cache-control": cacheControlFor(file.path, versionHost),
    "x-content-type-options": "nosniff",
    "accept-ranges": "bytes",
  };
  if (file.br || file.gzip) base.vary = "Accept-Encoding";
  for (const [name, value] of extraHeaders) base[name.toLowerCase()] = value;
  const withBody = (blob: Variant, encoding?: Encoding): OutgoingHttpHeaders => {
    // Object.assign, not a spread: these objects are read on every request, and on Node 20 a
    // spread followed by more properties gives each object its own hidden class (handler.ts routeFor).
    const headers: OutgoingHttpHeaders = Object.assign({}, base);
    if (encoding) headers["content-encoding"] = encoding;
    headers["content-length"] = blob.size;
    return headers;
  };
  const { "content-type": _type, ...notModified } = base;
  return {
    file,
    status,
    lastModified: manifest.publishedAt,
    base,
    byEncoding: {
      identity: withBody(file),
      br: file.br ? withBody(file.br, "br") : undefined,
      gzip: file.gzip ? withBody(file.gzip, "gzip") : undefined,
    },
    notModified,
  };
}

function chosenEncoding(req: EdgeRequest, file: ManifestFile): Encoding {
  if (!file.br && !file.gzip) return "identity";
  return chooseEncoding(req.headers["accept-encoding"], { br: file.br !== undefined, gzip: file.gzip !== undefined });
}

function blobFor(file: ManifestFile, encoding: Encoding): Variant {
  return encoding === "br" ? file.br! : encoding === "gzip" ? file.gzip! : file;
}

function notModified(req: EdgeRequest, p: PreparedFile): boolean {
  const ifNoneMatch = req.headers["if-none-match"];
  const ifModifiedSince = req.headers["if-modified-since"];
  if (p.status !== 200 || (ifNoneMatch === undefined && ifModifiedSince === undefined)) return false;
  return isNotModified({ ifNoneMatch, ifModifiedSince }, p.file.etag, p.lastModified);
}

/**
 * The warm path: answers without a promise when it can (the chosen variant cached, or small and
 * read now from a local store: BlobCache.readNow).
 * Returns false when the caller must take the full path. Never looks at Range: the callers
 * send requests with one elsewhere (respondWithRange).
 */
export function respondFromMemory(req: EdgeRequest, reply: EdgeReply, cache: BlobCache, p: PreparedFile): boolean {
  if (notModified(req, p)) {
    reply.send(304, p.notModified);
    return true;
  }
  const encoding = chosenEncoding(req, p.file);
  const blob = blobFor(p.file, encoding);
  const head = req.method === "HEAD";
  let buffer = cache.peek(blob.sha256);
  if (buffer) {
    if (!head) cache.counts.hit();
  } else {
    // A HEAD needs no body: respondWithFile answers it without reading one.
    buffer = head ? undefined : cache.readNow(blob.sha256, blob.size);
    if (!buffer) return false;
    cache.counts.miss();
  }
  reply.send(p.status, p.byEncoding[encoding]!, head ? undefined : buffer);
  return true;
}

/** The whole file, in the encoding the client prefers: from memory when it fits, else streamed. */
export async function respondWithFile(req: EdgeRequest, reply: EdgeReply, deps: RespondDeps, p: PreparedFile): Promise<void> {
  if (respondFromMemory(req, reply, deps.cache, p)) return;
  const encoding = chosenEncoding(req, p.file);
  const blob = blobFor(p.file, encoding);
  const headers = p.byEncoding[encoding]!;
  if (req.method === "HEAD" || blob.size === 0) return reply.send(p.status, headers);
  // Not in memory: read from the store, into the cache when it fits, else streamed.
  deps.cache.counts.miss();
  if (deps.cache.fits(blob.size)) return reply.send(p.status, headers, await deps.cache.load(blob.sha256));
  // Backpressure and a client that goes away are the reply's business (see EdgeReply.stream).
  if (reply.streamFile && deps.blobs.openFile) return reply.streamFile(p.status, headers, await deps.blobs.openFile(blob.sha256), blob.size);
  await reply.stream(p.status, headers, await deps.blobs.get(blob.sha256));
}

/** Whether a request's Range applies: only to a 200 answer, and only if If-Range allows it. */
export function rangeApplies(req: IncomingMessage, p: PreparedFile): boolean {
  const range = req.headers.range;
  return range !== undefined && p.status === 200 && ifRangeAllows(req.headers["if-range"] as string | undefined, p.file.etag, p.lastModified);
}

/**
 * A Range request (RFC 9110 §14), on node:http only: the edge's own HTTP/1.1 layer hands
 * connections with a Range over to node:http (see http1/connection.ts), as they are rare.
 */
export async function respondWithRange(req: IncomingMessage, res: ServerResponse, deps: RespondDeps, p: PreparedFile): Promise<void> {
  const { file } = p;
  const head = req.method === "HEAD";
  if (notModified(req, p)) {
    res.writeHead(304, p.notModified);
    res.end();
    return;
  }
  const range = parseRange(req.headers.range, file.size);
  if (range.kind === "unsatisfiable") {
    res.writeHead(416, { ...p.base, "content-range": unsatisfiedRange(file.size), "content-length": 0 });
    res.end();
    return;
  }
  if (range.kind === "single") {
    res.writeHead(206, {
      ...p.base,
      "content-range": contentRange(range.start, range.end, file.size),
      "content-length": range.end - range.start + 1,
    });
    if (head) return void res.end();
    if (deps.cache.fits(file.size)) {
      const buffer = peekCounted(deps.cache, file.sha256) ?? (await deps.cache.load(file.sha256));
      res.end(buffer.subarray(range.start, range.end + 1));
      return;
    }
    deps.cache.counts.miss();
    await pipeline(await deps.blobs.get(file.sha256, { start: range.start, end: range.end }), res);
    return;
  }
  if (range.kind === "multi") {
    const body = multipartByteranges(range.ranges, file.size, file.contentType);
    res.writeHead(206, { ...p.base, "content-type": body.contentType, "content-length": body.length });
    if (head) return void res.end();
    const cached = deps.cache.fits(file.size) ? (peekCounted(deps.cache, file.sha256) ?? (await deps.cache.load(file.sha256))) : undefined;
    if (!cached) deps.cache.counts.miss();
    for (const part of body.parts) {
      res.write(part.head);
      if (cached) res.write(cached.subarray(part.start, part.end + 1));
      else await writeRange(deps.blobs, file.sha256, part.start, part.end, res);
    }
    res.end(body.tail);
    return;
  }
  // A Range the server ignores (not bytes, malformed): the whole body, as RFC 9110 allows.
  await respondWithFile(req, nodeReply(res), deps, p);
}

/** The cached bytes, counted as a hit or, when they must be loaded, a miss. */
function peekCounted(cache: BlobCache, sha256: string): Buffer | undefined {
  const buffer = cache.peek(sha256);
  if (buffer) cache.counts.hit();
  else cache.counts.miss();
  return buffer;
}

/**
 * Streams one part of a multipart answer, waiting for the client when its buffer is full. A
 * visitor who goes away fails it with a premature close, and the part's file closes: a wait for
 * "drain" alone would never end, and hold the file open for good.
 */
async function writeRange(blobs: BlobStore, sha256: string, start: number, end: number, res: ServerResponse): Promise<void> {
  await pipeline(await blobs.get(sha256, { start, end }), res, { end: false });
}
