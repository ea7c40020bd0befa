// The edge: answers every request for a site host. Plain node:http, no framework, because this
// is the hot path. Host → deployment (EdgeResolver, cached) → route → file from memory or the
// blob store. After warm-up a request costs no query and no stat.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyBaseLogger } from "fastify";
import type { BlobStore } from "../storage/blobStore";
import { formatBytes } from "../../common/format";
import type { BlobCache } from "./blobCache";
import { headersFor } from "./config/headers";
import type { Manifest } from "./manifest";
import { imagePage, listingPage, notFoundPage, fileNotFoundPage, pdfViewerPage } from "./pages";
import { parseRequestPath } from "./paths";
import type { EdgeResolver } from "./resolver";
import { cacheControlFor, respondWithFile } from "./respond";
import { routeRequest } from "./route";

export type EdgeHandler = (req: IncomingMessage, res: ServerResponse, label: string) => void;

const SITE_NOT_FOUND = Buffer.from(notFoundPage());
const FILE_NOT_FOUND = Buffer.from(fileNotFoundPage());

function sendHtml(req: IncomingMessage, res: ServerResponse, status: number, body: Buffer, cache: string): void {
  res.statusCode = status;
  res.setHeader("content-type", "text/html; charset=utf-8");
  res.setHeader("content-length", body.length);
  res.setHeader("cache-control", cache);
  res.setHeader("x-content-type-options", "nosniff");
  res.end(req.method === "HEAD" ? undefined : body);
}

function rootPage(manifest: Manifest): string {
  const root = manifest.root;
  if (root.kind === "pdf") return pdfViewerPage(root.path);
  if (root.kind === "image") return imagePage(root.path);
  return listingPage([...manifest.files.values()].filter((f) => !f.path.startsWith("_")), formatBytes);
}

export function createEdgeHandler(deps: { resolver: EdgeResolver; blobs: BlobStore; cache: BlobCache; log: FastifyBaseLogger }): EdgeHandler {
  const serve = async (req: IncomingMessage, res: ServerResponse, label: string) => {
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.statusCode = 405;
      res.setHeader("allow", "GET, HEAD");
      res.setHeader("x-content-type-options", "nosniff");
      res.end();
      return;
    }
    const resolved = await deps.resolver.resolve(label);
    if (!resolved) return sendHtml(req, res, 404, SITE_NOT_FOUND, "no-store");
    const { manifest, versionHost } = resolved;
    const url = req.url ?? "/";
    const requested = parseRequestPath(url);
    if (!requested.ok) return sendHtml(req, res, 404, FILE_NOT_FOUND, "no-cache");
    const queryAt = url.indexOf("?");
    const query = queryAt === -1 ? "" : url.slice(queryAt);

    const route = routeRequest(manifest, manifest.config.redirects, requested.path, requested.directory, query);
    const extraHeaders = manifest.config.headers.length > 0 ? headersFor(manifest.config.headers, `/${requested.path}${requested.directory && requested.path ? "/" : ""}`) : undefined;
    switch (route.kind) {
      case "file":
        return respondWithFile(req, res, { blobs: deps.blobs, cache: deps.cache }, { file: route.file, manifest, versionHost, status: route.status, ...(extraHeaders ? { extraHeaders } : {}) });
      case "root":
        return sendHtml(req, res, 200, Buffer.from(rootPage(manifest)), cacheControlFor("", versionHost));
      case "redirect":
        res.statusCode = route.status;
        res.setHeader("location", route.location);
        res.setHeader("content-length", 0);
        res.setHeader("x-content-type-options", "nosniff");
        res.setHeader("cache-control", cacheControlFor("", versionHost));
        res.end();
        return;
      case "not-found":
        return sendHtml(req, res, 404, FILE_NOT_FOUND, "no-cache");
    }
  };

  return (req, res, label) => {
    serve(req, res, label).catch((error: unknown) => {
      // A visitor who goes away mid-download is not an error of ours.
      if ((error as NodeJS.ErrnoException).code === "ERR_STREAM_PREMATURE_CLOSE") return;
      deps.log.error({ err: error, host: req.headers.host, url: req.url }, "edge failed to serve");
      if (!res.headersSent) sendHtml(req, res, 500, Buffer.from("Internal error"), "no-store");
      else res.destroy();
    });
  };
}
