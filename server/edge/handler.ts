// The edge: answers every request for a site host. Plain node:http, no framework, because this
// is the hot path. Host → deployment (EdgeResolver) → route → file from memory or the blob store.
// After warm-up a request for a small file is answered synchronously: a few map lookups, one
// writeHead, one end; no query, no stat, no promise.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyBaseLogger } from "fastify";
import type { BlobStore } from "../storage/blobStore";
import { formatBytes } from "../../common/format";
import type { BlobCache } from "./blobCache";
import { headersFor } from "./config/headers";
import type { Manifest } from "./manifest";
import { imagePage, listingPage, notFoundPage, fileNotFoundPage, pdfViewerPage } from "./pages";
import { parseRequestPath } from "./paths";
import type { EdgeResolver, ServedHost } from "./resolver";
import { cacheControlFor, prepareFile, respondFromMemory, respondWithFile, type PreparedFile } from "./respond";
import { routeRequest } from "./route";

export type EdgeHandler = (req: IncomingMessage, res: ServerResponse, label: string) => void;

type Prepared =
  | { kind: "file"; file: PreparedFile }
  | { kind: "page"; status: number; body: Buffer; cache: string }
  | { kind: "redirect"; status: number; location: string; cache: string };

const SITE_NOT_FOUND = Buffer.from(notFoundPage());
const FILE_NOT_FOUND: Prepared = { kind: "page", status: 404, body: Buffer.from(fileNotFoundPage()), cache: "no-cache" };
/** Paths remembered per host; past this the map starts again, so random URLs cannot grow it. */
const MAX_ROUTES_PER_HOST = 10_000;

function sendPage(req: IncomingMessage, res: ServerResponse, status: number, body: Buffer, cache: string): void {
  res.writeHead(status, {
    "content-type": "text/html; charset=utf-8",
    "content-length": body.length,
    "cache-control": cache,
    "x-content-type-options": "nosniff",
  });
  res.end(req.method === "HEAD" ? undefined : body);
}

function rootPage(manifest: Manifest): string {
  const root = manifest.root;
  if (root.kind === "pdf") return pdfViewerPage(root.path);
  if (root.kind === "image") return imagePage(root.path);
  return listingPage([...manifest.files.values()].filter((f) => !f.path.startsWith("_")), formatBytes);
}

/** Works out what a path on this host answers; the result is the same for every request. */
function prepare(host: ServedHost, rawPath: string): Prepared {
  const requested = parseRequestPath(rawPath);
  if (!requested.ok) return FILE_NOT_FOUND;
  const { manifest, versionHost } = host;
  const route = routeRequest(manifest, manifest.config.redirects, requested.path, requested.directory);
  switch (route.kind) {
    case "file": {
      const headerPath = `/${requested.path}${requested.directory && requested.path ? "/" : ""}`;
      const extra = manifest.config.headers.length > 0 ? headersFor(manifest.config.headers, headerPath) : [];
      return { kind: "file", file: prepareFile(route.file, manifest, versionHost, route.status, extra) };
    }
    case "root":
      return { kind: "page", status: 200, body: Buffer.from(rootPage(manifest)), cache: cacheControlFor("", versionHost) };
    case "redirect":
      return { kind: "redirect", status: route.status, location: route.location, cache: cacheControlFor("", versionHost) };
    case "not-found":
      return FILE_NOT_FOUND;
  }
}

export function createEdgeHandler(deps: { resolver: EdgeResolver; blobs: BlobStore; cache: BlobCache; log: FastifyBaseLogger }): EdgeHandler {
  const fail = (req: IncomingMessage, res: ServerResponse, error: unknown) => {
    // A visitor who goes away mid-download is not an error of ours.
    if ((error as NodeJS.ErrnoException).code === "ERR_STREAM_PREMATURE_CLOSE") return;
    deps.log.error({ err: error, host: req.headers.host, url: req.url }, "edge failed to serve");
    if (!res.headersSent) sendPage(req, res, 500, Buffer.from("Internal error"), "no-store");
    else res.destroy();
  };

  const answer = (req: IncomingMessage, res: ServerResponse, host: ServedHost): void => {
    const url = req.url ?? "/";
    const queryAt = url.indexOf("?");
    const rawPath = queryAt === -1 ? url : url.slice(0, queryAt);
    let prepared = host.routes.get(rawPath) as Prepared | undefined;
    if (prepared === undefined) {
      prepared = prepare(host, rawPath);
      if (host.routes.size >= MAX_ROUTES_PER_HOST) host.routes.clear();
      host.routes.set(rawPath, prepared);
    }
    switch (prepared.kind) {
      case "file":
        if (respondFromMemory(req, res, deps.cache, prepared.file)) return;
        respondWithFile(req, res, deps, prepared.file).catch((error: unknown) => fail(req, res, error));
        return;
      case "page":
        return sendPage(req, res, prepared.status, prepared.body, prepared.cache);
      case "redirect": {
        const query = queryAt === -1 || prepared.location.includes("?") ? "" : url.slice(queryAt);
        res.writeHead(prepared.status, {
          location: prepared.location + query,
          "content-length": 0,
          "cache-control": prepared.cache,
          "x-content-type-options": "nosniff",
        });
        res.end();
        return;
      }
    }
  };

  return (req, res, label) => {
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { allow: "GET, HEAD", "content-length": 0, "x-content-type-options": "nosniff" });
      res.end();
      return;
    }
    try {
      const warm = deps.resolver.peek(label);
      if (warm) return answer(req, res, warm);
      if (warm === null) return sendPage(req, res, 404, SITE_NOT_FOUND, "no-store");
    } catch (error) {
      return fail(req, res, error);
    }
    deps.resolver.resolve(label).then(
      (host) => (host ? answer(req, res, host) : sendPage(req, res, 404, SITE_NOT_FOUND, "no-store")),
      (error: unknown) => fail(req, res, error),
    );
  };
}
