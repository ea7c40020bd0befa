// The edge: answers every request for a site host. Plain node:http, no framework, because this
// is the hot path. Host → live deployment (EdgeResolver, cached) → path → blob, streamed.
import type { IncomingMessage, ServerResponse } from "node:http";
import { pipeline } from "node:stream/promises";
import type { FastifyBaseLogger } from "fastify";
import type { BlobStore } from "../storage/blobStore";
import { formatBytes } from "../../common/format";
import type { Manifest, ManifestFile } from "./manifest";
import { fileNotFoundPage, hrefFor, imagePage, listingPage, notFoundPage, pdfViewerPage } from "./pages";
import { parseRequestPath } from "./paths";
import type { EdgeResolver } from "./resolver";

export type EdgeHandler = (req: IncomingMessage, res: ServerResponse, label: string) => void;

const SITE_NOT_FOUND = Buffer.from(notFoundPage());
const FILE_NOT_FOUND = Buffer.from(fileNotFoundPage());

function sendHtml(req: IncomingMessage, res: ServerResponse, status: number, body: Buffer, cache = "no-cache"): void {
  res.statusCode = status;
  res.setHeader("content-type", "text/html; charset=utf-8");
  res.setHeader("content-length", body.length);
  res.setHeader("cache-control", cache);
  res.setHeader("x-content-type-options", "nosniff");
  res.end(req.method === "HEAD" ? undefined : body);
}

function redirect(res: ServerResponse, location: string): void {
  res.statusCode = 301;
  res.setHeader("location", location);
  res.setHeader("content-length", 0);
  res.end();
}

type Target = { file: ManifestFile } | { page: string } | { redirect: string } | undefined;

/** Which file (or generated page) a path means in this deployment. */
export function resolveTarget(manifest: Manifest, path: string, directory: boolean, rawTarget: string): Target {
  if (path === "") {
    const root = manifest.root;
    if (root.kind === "file") return { file: manifest.files.get(root.path)! };
    if (root.kind === "pdf") return { page: pdfViewerPage(root.path) };
    if (root.kind === "image") return { page: imagePage(root.path) };
    return { page: listingPage([...manifest.files.values()], formatBytes) };
  }
  if (directory) {
    const index = manifest.files.get(`${path}/index.html`);
    return index ? { file: index } : undefined;
  }
  const exact = manifest.files.get(path);
  if (exact) return { file: exact };
  // "/docs" for a folder with an index: send the browser to "/docs/" so relative links work.
  if (manifest.files.has(`${path}/index.html`)) {
    const query = rawTarget.indexOf("?");
    return { redirect: hrefFor(path) + "/" + (query === -1 ? "" : rawTarget.slice(query)) };
  }
  return undefined;
}

export function createEdgeHandler(deps: { resolver: EdgeResolver; blobs: BlobStore; log: FastifyBaseLogger }): EdgeHandler {
  const serve = async (req: IncomingMessage, res: ServerResponse, label: string) => {
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.statusCode = 405;
      res.setHeader("allow", "GET, HEAD");
      res.end();
      return;
    }
    const manifest = await deps.resolver.resolve(label);
    if (!manifest) return sendHtml(req, res, 404, SITE_NOT_FOUND, "no-store");
    const requested = parseRequestPath(req.url ?? "/");
    if (!requested.ok) return sendHtml(req, res, 404, FILE_NOT_FOUND);
    const target = resolveTarget(manifest, requested.path, requested.directory, req.url ?? "/");
    if (!target) return sendHtml(req, res, 404, FILE_NOT_FOUND);
    if ("redirect" in target) return redirect(res, target.redirect);
    if ("page" in target) return sendHtml(req, res, 200, Buffer.from(target.page));

    const file = target.file;
    res.statusCode = 200;
    res.setHeader("content-type", file.contentType);
    res.setHeader("content-length", file.size);
    res.setHeader("etag", `"${file.sha256}"`);
    res.setHeader("cache-control", "public, max-age=0, must-revalidate");
    res.setHeader("x-content-type-options", "nosniff");
    if (req.method === "HEAD") return void res.end();
    await pipeline(await deps.blobs.get(file.sha256), res);
  };

  return (req, res, label) => {
    serve(req, res, label).catch((error: unknown) => {
      // A visitor who goes away mid-download is not an error of ours.
      if ((error as NodeJS.ErrnoException).code === "ERR_STREAM_PREMATURE_CLOSE") return;
      deps.log.error({ err: error, host: req.headers.host, url: req.url }, "edge failed to serve");
      if (!res.headersSent) sendHtml(req, res, 500, Buffer.from("Internal error"));
      else res.destroy();
    });
  };
}
