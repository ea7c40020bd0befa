// The edge: answers every request for a site host. Plain node:http, no framework, because this
// is the hot path. Until sites can be published, every site host gets a branded 404.
import type { IncomingMessage, ServerResponse } from "node:http";
import { notFoundPage } from "./pages";

export type EdgeHandler = (req: IncomingMessage, res: ServerResponse) => void;

export function createEdgeHandler(): EdgeHandler {
  const body = Buffer.from(notFoundPage());
  return (req, res) => {
    res.statusCode = 404;
    res.setHeader("content-type", "text/html; charset=utf-8");
    res.setHeader("content-length", body.length);
    res.setHeader("cache-control", "no-store");
    res.setHeader("x-content-type-options", "nosniff");
    res.end(req.method === "HEAD" ? undefined : body);
  };
}
