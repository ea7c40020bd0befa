// Serves the built dashboard. Hashed assets are cached for a year; every page path gets
// index.html, with status 404 when no screen handles the path, so that crawlers and tools see
// the truth while the browser still renders the not-found screen.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import fastifyStatic from "@fastify/static";
import { isAppRoute } from "../../common/routes";

export async function webRoutes(app: FastifyInstance, distDir: string): Promise<void> {
  const indexFile = path.join(distDir, "index.html");
  if (!existsSync(indexFile)) {
    throw new Error(`The dashboard is not built (no ${indexFile}). Run "npm run build" or start with "npm start".`);
  }
  const indexHtml = readFileSync(indexFile);

  await app.register(fastifyStatic, {
    root: distDir,
    index: false,
    // One route per built file; every other path falls through to the page handler below.
    wildcard: false,
    setHeaders(res, filePath) {
      const immutable = filePath.startsWith(path.join(distDir, "assets") + path.sep);
      res.header("cache-control", immutable ? "public, max-age=31536000, immutable" : "public, max-age=300");
    },
  });

  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split("?")[0] ?? "/";
    const wantsPage = (request.method === "GET" || request.method === "HEAD") && !pathname.startsWith("/api/");
    if (!wantsPage) {
      return reply.status(404).send({ error: { code: "not_found", message: "Not found" } });
    }
    return reply
      .status(isAppRoute(pathname) ? 200 : 404)
      .header("content-type", "text/html; charset=utf-8")
      .header("cache-control", "no-cache")
      .send(indexHtml);
  });
}
