import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getTestServer, type TestServer } from "../test/support";

describe("the dashboard host", () => {
  let server: TestServer;
  beforeAll(async () => {
    const dist = mkdtempSync(path.join(os.tmpdir(), "berth-web-"));
    mkdirSync(path.join(dist, "assets"));
    writeFileSync(path.join(dist, "index.html"), "<!doctype html><div id=root></div>");
    writeFileSync(path.join(dist, "assets", "index-abc123.js"), "console.log(1)");
    writeFileSync(path.join(dist, "favicon.svg"), "<svg/>");
    server = await getTestServer("pglite", { app: { webDir: dist } });
  });
  afterAll(() => server.close());

  it.each(["/", "/contact", "/auth/login", "/auth/update-password?token=x", "/dashboard", "/terms", "/privacy", "/docs"])(
    "serves the app at %s with 200",
    async (url) => {
      const response = await server.client().get(url);
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-type"]).toMatch(/text\/html/);
      expect(response.body).toContain("<div id=root>");
      expect(response.headers["cache-control"]).toBe("no-cache");
    },
  );

  it.each(["/nope", "/dashboard/nope", "/auth", "/contact/x"])("serves the app at unknown %s with 404", async (url) => {
    const response = await server.client().get(url);
    expect(response.statusCode).toBe(404);
    expect(response.body).toContain("<div id=root>");
  });

  it("caches hashed assets for a year", async () => {
    const response = await server.client().get("/assets/index-abc123.js");
    expect(response.statusCode).toBe(200);
    expect(response.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  });

  it("answers unknown API paths with a JSON 404", async () => {
    const response = await server.client().get("/api/nope");
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: { code: "not_found", message: "Not found" } });
  });

  it("sends security headers that keep the dashboard out of frames", async () => {
    const response = await server.client().get("/");
    expect(response.headers["x-frame-options"]).toBe("DENY");
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    expect(String(response.headers["content-security-policy"])).toContain("frame-ancestors 'none'");
  });
});
