// The edge end to end: real sites published through the API, requests over a socket. Hostile
// and random requests are in server/security/edgeFuzz.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { getTestServer, type TestClient, type TestServer } from "../test/support";
import { signedInClient } from "../test/factories";
import { createSiteWith, hostOf, postMultipart, zipOf } from "../test/sites";
import type { SiteResponse } from "../../common/sites";

const appJs = "const answer = 42;\n".repeat(400);
const bigText = Array.from({ length: 3000 }, (_, i) => `line ${i}: ${"abcdefghij".repeat(i % 7)}`).join("\n");

describe("the edge, over HTTP", () => {
  let server: TestServer;
  let client: TestClient;
  let site: SiteResponse;
  let host: string;

  beforeAll(async () => {
    server = await getTestServer("pglite");
    client = (await signedInClient(server)).client;
    const zip = await zipOf([
      { name: "index.html", data: "<h1>Home</h1>" },
      { name: "about.html", data: "<h1>About</h1>" },
      { name: "contact.html", data: "<h1>Contact</h1>" },
      { name: "docs/index.html", data: "<h1>Docs</h1>" },
      { name: "app.js", data: appJs },
      { name: "assets/app.3f9a2c1b.js", data: "fingerprinted();" },
      { name: "data.txt", data: bigText },
      { name: "photo.bin", data: Buffer.alloc(3000, 7) },
      { name: "404.html", data: "<h1>Custom missing page</h1>" },
      { name: "_headers", data: "/app.js\n  X-Frame-Options: DENY\n/docs/*\n  X-Robots-Tag: noindex\n" },
      {
        name: "_redirects",
        data: "/old /about 301\n/blog/:year/:slug /posts/:slug.html 302\n/go https://example.com/ 302\n/shadowed /docs/ 301\n/about /docs/ 302!\n",
      },
    ]);
    site = await createSiteWith(client, { name: "site.zip", content: zip, type: "application/zip" });
    host = hostOf(site.url);
    await server.compressor.kick();
  });
  afterAll(() => server.close());

  it("sends validators and caching headers, and 304 for a matching ETag or date", async () => {
    const first = await server.edge.get(host, "/app.js");
    expect(first.status).toBe(200);
    expect(first.headers.etag).toMatch(/^"[0-9a-f]{64}"$/);
    expect(first.headers["last-modified"]).toMatch(/GMT$/);
    expect(first.headers["cache-control"]).toBe("public, max-age=0, must-revalidate");
    expect(first.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(first.headers["x-frame-options"]).toBe("DENY");

    const byTag = await server.edge.get(host, "/app.js", { headers: { "if-none-match": `W/"x", ${first.headers.etag}` } });
    expect(byTag.status).toBe(304);
    expect(byTag.body.length).toBe(0);
    expect(byTag.headers.etag).toBe(first.headers.etag);
    const byDate = await server.edge.get(host, "/app.js", { headers: { "if-modified-since": String(first.headers["last-modified"]) } });
    expect(byDate.status).toBe(304);
    const stale = await server.edge.get(host, "/app.js", {
      headers: { "if-none-match": '"other"', "if-modified-since": String(first.headers["last-modified"]) },
    });
    expect(stale.status).toBe(200);
  });

  it("answers HEAD with the same headers and no body", async () => {
    const get = await server.edge.get(host, "/data.txt");
    const head = await server.edge.get(host, "/data.txt", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers["content-length"]).toBe(get.headers["content-length"]);
    expect(head.headers.etag).toBe(get.headers.etag);
  });

  it("serves byte ranges, 416 beyond the end, and the whole body when If-Range does not match", async () => {
    const file = Buffer.alloc(3000, 7);
    const single = await server.edge.get(host, "/photo.bin", { headers: { range: "bytes=10-19" } });
    expect(single.status).toBe(206);
    expect(single.headers["content-range"]).toBe("bytes 10-19/3000");
    expect(single.body.equals(file.subarray(10, 20))).toBe(true);
    const suffix = await server.edge.get(host, "/photo.bin", { headers: { range: "bytes=-5" } });
    expect(suffix.headers["content-range"]).toBe("bytes 2995-2999/3000");
    const open = await server.edge.get(host, "/photo.bin", { headers: { range: "bytes=2990-" } });
    expect(open.body.length).toBe(10);
    const beyond = await server.edge.get(host, "/photo.bin", { headers: { range: "bytes=5000-6000" } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers["content-range"]).toBe("bytes */3000");
    const multi = await server.edge.get(host, "/photo.bin", { headers: { range: "bytes=0-1,100-101" } });
    expect(multi.status).toBe(206);
    expect(String(multi.headers["content-type"])).toMatch(/^multipart\/byteranges; boundary=/);
    expect(multi.body.length).toBe(Number(multi.headers["content-length"]));
    const wrongIfRange = await server.edge.get(host, "/photo.bin", { headers: { range: "bytes=0-9", "if-range": '"not-it"' } });
    expect(wrongIfRange.status).toBe(200);
    expect(wrongIfRange.body.length).toBe(3000);
  });

  it("negotiates brotli, then gzip, with Vary, and never compresses what is not text", async () => {
    const br = await server.edge.get(host, "/app.js", { headers: { "accept-encoding": "gzip, deflate, br" } });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toBe("Accept-Encoding");
    expect(brotliDecompressSync(br.body).toString()).toBe(appJs);
    expect(br.body.length).toBeLessThan(appJs.length);
    const gzip = await server.edge.get(host, "/app.js", { headers: { "accept-encoding": "gzip" } });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzip.body).toString()).toBe(appJs);
    const plain = await server.edge.get(host, "/app.js", { headers: { "accept-encoding": "identity" } });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.text).toBe(appJs);
    const binary = await server.edge.get(host, "/photo.bin", { headers: { "accept-encoding": "br" } });
    expect(binary.headers["content-encoding"]).toBeUndefined();
    const small = await server.edge.get(host, "/index.html", { headers: { "accept-encoding": "br" } });
    expect(small.headers["content-encoding"]).toBeUndefined();
  });

  it("makes version hosts and fingerprinted names immutable", async () => {
    const versioned = await server.edge.get(`${site.subdomain}--v1.localhost:8080`, "/app.js");
    expect(versioned.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    const fingerprinted = await server.edge.get(host, "/assets/app.3f9a2c1b.js");
    expect(fingerprinted.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  });

  it("has clean URLs", async () => {
    expect((await server.edge.get(host, "/contact")).text).toBe("<h1>Contact</h1>");
    const pretty = await server.edge.get(host, "/contact.html?x=1");
    expect(pretty.status).toBe(301);
    expect(pretty.headers.location).toBe("/contact?x=1");
    const dir = await server.edge.get(host, "/docs");
    expect(dir.status).toBe(301);
    expect(dir.headers.location).toBe("/docs/");
    expect((await server.edge.get(host, "/docs/")).text).toBe("<h1>Docs</h1>");
    expect((await server.edge.get(host, "/docs/index.html")).text).toBe("<h1>Docs</h1>");
  });

  it("follows _redirects, with placeholders and forced rules, and uses the site's 404.html", async () => {
    const old = await server.edge.get(host, "/old");
    expect([old.status, old.headers.location]).toEqual([301, "/about"]);
    const blog = await server.edge.get(host, "/blog/2026/hello");
    expect([blog.status, blog.headers.location]).toEqual([302, "/posts/hello.html"]);
    expect((await server.edge.get(host, "/go")).headers.location).toBe("https://example.com/");
    // "/about" exists, but the rule is forced with "!".
    const forced = await server.edge.get(host, "/about");
    expect([forced.status, forced.headers.location]).toEqual([302, "/docs/"]);
    const missing = await server.edge.get(host, "/no/such/page");
    expect(missing.status).toBe(404);
    expect(missing.text).toBe("<h1>Custom missing page</h1>");
    expect((await server.edge.get(host, "/docs/")).headers["x-robots-tag"]).toBe("noindex");
    // The configuration files themselves are never served.
    expect((await server.edge.get(host, "/_redirects")).status).toBe(404);
    expect((await server.edge.get(host, "/_headers")).status).toBe(404);
  });

  it("fails a publish with a bad _redirects line, naming it, and keeps the old version live", async () => {
    const before = (await server.edge.get(host, "/docs/")).text;
    const response = await postMultipart(
      client,
      `/api/sites/${site.id}/files`,
      {},
      { name: "_redirects", content: "/a /b 301\n/c /d 303\n", type: "text/plain" },
    );
    expect(response.json().deployment).toMatchObject({
      status: "failed",
      error: expect.stringMatching(/^_redirects line 2: unknown status "303"/),
      is_live: false,
    });
    expect((await server.edge.get(host, "/docs/")).text).toBe(before);
  });

  it("falls back to 200.html for a single-page app", async () => {
    const spa = await createSiteWith(client, {
      name: "spa.zip",
      content: await zipOf([
        { name: "200.html", data: "<div id=app></div>" },
        { name: "main.js", data: "x" },
      ]),
      type: "application/zip",
    });
    const deep = await server.edge.get(hostOf(spa.url), "/users/42/settings");
    expect(deep.status).toBe(200);
    expect(deep.text).toBe("<div id=app></div>");
  });

  it("sees a new version on the very next request after a publish", async () => {
    const fresh = await createSiteWith(client, { name: "index.html", content: "<p>one</p>", type: "text/html" });
    const freshHost = hostOf(fresh.url);
    expect((await server.edge.get(freshHost, "/")).text).toBe("<p>one</p>");
    await postMultipart(client, `/api/sites/${fresh.id}/files`, {}, { name: "index.html", content: "<p>two</p>", type: "text/html" });
    expect((await server.edge.get(freshHost, "/")).text).toBe("<p>two</p>");
    await client.delete(`/api/sites/${fresh.id}`);
    expect((await server.edge.get(freshHost, "/")).status).toBe(404);
  });
});
