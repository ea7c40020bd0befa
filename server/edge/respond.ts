// Writing one file of a deployment: conditional requests, ranges, compression and caching
// headers, then the bytes from memory (small files) or streamed from the blob store.
import type { IncomingMessage, ServerResponse } from "node:http";
import { pipeline } from "node:stream/promises";
import { once } from "node:events";
import type { BlobStore } from "../storage/blobStore";
import type { BlobCache } from "./blobCache";
import type { Manifest, ManifestFile, Variant } from "./manifest";
import { isNotModified, httpDate } from "./http/conditional";
import { contentRange, ifRangeAllows, multipartByteranges, parseRange, unsatisfiedRange } from "./http/range";
import { chooseEncoding } from "./http/encoding";

export const LIVE_CACHE = "public, max-age=0, must-revalidate";
export const IMMUTABLE_CACHE = "public, max-age=31536000, immutable";

// A name carrying a content hash (app.3f9a2c1b.js, index-CnHfVklN.js) never changes content.
const FINGERPRINTED = /[.-](?=[A-Za-z0-9_]*\d)(?=[A-Za-z0-9_]*[A-Za-z])[A-Za-z0-9_]{8,}\.(?:js|mjs|css|woff2?|ttf|otf|png|jpe?g|gif|svg|webp|avif|wasm|map)$/;

export function cacheControlFor(path: string, versionHost: boolean): string {
  return versionHost || FINGERPRINTED.test(path) ? IMMUTABLE_CACHE : LIVE_CACHE;
}

export interface RespondDeps {
  blobs: BlobStore;
  cache: BlobCache;
}

export interface FileResponse {
  file: ManifestFile;
  manifest: Manifest;
  versionHost: boolean;
  /** 200 normally; 404 when this file is the site's own 404 page. */
  status: number;
  /** Extra headers from the site's _headers file. */
  extraHeaders?: Array<[string, string]>;
}

async function bytesOf(deps: RespondDeps, blob: Variant, start: number, end: number, res: ServerResponse): Promise<void> {
  if (deps.cache.fits(blob.size)) {
    const buffer = deps.cache.peek(blob.sha256) ?? (await deps.cache.load(blob.sha256));
    res.end(start === 0 && end === buffer.length - 1 ? buffer : buffer.subarray(start, end + 1));
    return;
  }
  // Backpressure comes with pipeline(); a client that goes away destroys the blob stream too.
  await pipeline(await deps.blobs.get(blob.sha256, { start, end }), res);
}

export async function respondWithFile(req: IncomingMessage, res: ServerResponse, deps: RespondDeps, r: FileResponse): Promise<void> {
  const { file } = r;
  const lastModified = r.manifest.publishedAt;
  const head = req.method === "HEAD";
  res.setHeader("content-type", file.contentType);
  res.setHeader("etag", file.etag);
  res.setHeader("last-modified", httpDate(lastModified));
  res.setHeader("cache-control", cacheControlFor(file.path, r.versionHost));
  res.setHeader("x-content-type-options", "nosniff");
  res.setHeader("accept-ranges", "bytes");
  const compressible = file.br !== undefined || file.gzip !== undefined;
  if (compressible) res.setHeader("vary", "Accept-Encoding");
  for (const [name, value] of r.extraHeaders ?? []) res.setHeader(name, value);

  if (r.status === 200 && isNotModified({ ifNoneMatch: req.headers["if-none-match"], ifModifiedSince: req.headers["if-modified-since"] }, file.etag, lastModified)) {
    res.removeHeader("content-type");
    res.statusCode = 304;
    res.end();
    return;
  }

  const rangeHeader = r.status === 200 ? req.headers.range : undefined;
  if (rangeHeader !== undefined && ifRangeAllows(req.headers["if-range"] as string | undefined, file.etag, lastModified)) {
    const range = parseRange(rangeHeader, file.size);
    if (range.kind === "unsatisfiable") {
      res.statusCode = 416;
      res.setHeader("content-range", unsatisfiedRange(file.size));
      res.setHeader("content-length", 0);
      res.end();
      return;
    }
    if (range.kind === "single") {
      res.statusCode = 206;
      res.setHeader("content-range", contentRange(range.start, range.end, file.size));
      res.setHeader("content-length", range.end - range.start + 1);
      if (head) return void res.end();
      return bytesOf(deps, file, range.start, range.end, res);
    }
    if (range.kind === "multi") {
      const body = multipartByteranges(range.ranges, file.size, file.contentType);
      res.statusCode = 206;
      res.setHeader("content-type", body.contentType);
      res.setHeader("content-length", body.length);
      if (head) return void res.end();
      const cached = deps.cache.fits(file.size) ? (deps.cache.peek(file.sha256) ?? (await deps.cache.load(file.sha256))) : undefined;
      for (const part of body.parts) {
        res.write(part.head);
        if (cached) res.write(cached.subarray(part.start, part.end + 1));
        else await writeRange(deps.blobs, file.sha256, part.start, part.end, res);
      }
      res.end(body.tail);
      return;
    }
  }

  const encoding = compressible ? chooseEncoding(req.headers["accept-encoding"], { br: file.br !== undefined, gzip: file.gzip !== undefined }) : "identity";
  const blob: Variant = encoding === "br" ? file.br! : encoding === "gzip" ? file.gzip! : file;
  if (encoding !== "identity") res.setHeader("content-encoding", encoding);
  res.statusCode = r.status;
  res.setHeader("content-length", blob.size);
  if (head) return void res.end();
  if (blob.size === 0) return void res.end();
  return bytesOf(deps, blob, 0, blob.size - 1, res);
}

/** Streams one part of a multipart answer, waiting for the client when its buffer is full. */
async function writeRange(blobs: BlobStore, sha256: string, start: number, end: number, res: ServerResponse): Promise<void> {
  for await (const chunk of await blobs.get(sha256, { start, end })) {
    if (!res.write(chunk as Buffer)) await once(res, "drain");
  }
}
