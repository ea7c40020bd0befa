// Hostile requests to the edge over real sockets: thousands of random paths, hosts, methods,
// ranges and conditional headers through node's client, and hundreds of malformed requests as
// raw bytes. Whatever comes in, the answer is a 1xx–4xx (never a 5xx, 416 exactly when a valid
// range starts past the end), and never a byte of a file outside the public deployment asked
// for: secrets sit in a private site, a password-protected one, a deleted one, a draft that
// failed to publish, and the data directory, and their markers must never appear.
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DRIVERS, getTestServer, type TestServer } from "../test/support";
import { ownerWithSite } from "../test/factories";
import { hostOf, postMultipart, zipOf } from "../test/sites";
import { RawConnection } from "../test/rawHttp";
import type { EdgeResponse } from "../test/edgeClient";

const PHOTO = Buffer.alloc(3000, 7);
const BIG = randomBytes(1100 * 1024); // past the memory cache's per-file limit: streamed from the store
const APP_JS = "const answer = 42;\n".repeat(400);

/** A secret: its marker repeated, so any slice longer than FINGERPRINT + marker shows it. */
function secret(name: string) {
  const marker = `${name}-${randomBytes(12).toString("hex")}|`;
  return { marker, fingerprint: marker.slice(0, 18), content: marker.repeat(200) };
}

/** The seeded generator of the existing fuzz (server/edge), so a failure replays. */
function generator(seed: number) {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const int = (max: number) => Math.floor(next() * max);
  return { next, pick, int };
}

describe.each(DRIVERS)("hostile requests to the edge (%s)", (driver) => {
  let server: TestServer;
  const secrets = {
    private: secret("PRIVATE"),
    protected: secret("PROTECTED"),
    deleted: secret("DELETED"),
    draft: secret("DRAFT"),
    data: secret("DATADIR"),
  };
  let publicHost: string;
  let subdomain: string;
  let hosts: string[];
  let sharePath: string;
  let hiddenHost: string;

  beforeAll(async () => {
    server = await getTestServer(driver);

    const open = await ownerWithSite(server, "pro", [
      { name: "index.html", data: "<h1>Home</h1>" },
      { name: "about.html", data: "<h1>About</h1>" },
      { name: "docs/index.html", data: "<h1>Docs</h1>" },
      { name: "app.js", data: APP_JS },
      { name: "photo.bin", data: PHOTO },
      { name: "big.bin", data: BIG },
      { name: "404.html", data: "<h1>Custom missing page</h1>" },
      { name: "_headers", data: "/app.js\n  X-Frame-Options: DENY\n/docs/*\n  X-Robots-Tag: noindex\n" },
      { name: "_redirects", data: "/old /about 301\n/blog/:year/:slug /posts/:slug.html 302\n/go https://example.com/ 302\n/about /docs/ 302!\n" },
    ]);
    publicHost = hostOf(open.site.url);
    subdomain = open.site.subdomain;
    await server.compressor.kick();
    // Files in the working tree that never reached a deployment: the publish fails on _redirects.
    const draft = await postMultipart(
      open.client,
      `/api/sites/${open.site.id}/files`,
      { extract: "true" },
      {
        name: "draft.zip",
        content: await zipOf([
          { name: "draft.html", data: secrets.draft.content },
          { name: "_redirects", data: "/a /b 999\n" },
        ]),
        type: "application/zip",
      },
    );
    expect(draft.json().deployment.status).toBe("failed");

    const files = (s: { content: string }) => [
      { name: "index.html", data: s.content },
      { name: "secret.html", data: s.content },
      { name: "photo.bin", data: s.content },
    ];
    const hidden = await ownerWithSite(server, "pro", files(secrets.private));
    expect((await hidden.client.request("PUT", `/api/sites/${hidden.site.id}/visibility`, { json: { visibility: "private" } })).statusCode).toBe(200);
    const link = await hidden.client.post(`/api/sites/${hidden.site.id}/share-links`, { name: "Friend" });
    sharePath = new URL(link.json<{ url: string }>().url).pathname;
    const locked = await ownerWithSite(server, "pro", files(secrets.protected));
    expect(
      (await locked.client.request("PUT", `/api/sites/${locked.site.id}/password`, { json: { password: "a long site password" } })).statusCode,
    ).toBe(200);
    const gone = await ownerWithSite(server, "pro", files(secrets.deleted));
    expect((await gone.client.delete(`/api/sites/${gone.site.id}`)).statusCode).toBe(200);
    // Beside the database and in the blob store's own directory.
    writeFileSync(path.join(server.ctx.env.dataDir, "secret.txt"), secrets.data.content);
    writeFileSync(path.join(server.ctx.env.dataDir, "blobs", "secret.txt"), secrets.data.content);
    hiddenHost = hostOf(hidden.site.url);

    const port = new URL(open.site.url).port;
    const labelled = (site: { subdomain: string }) => [`${site.subdomain}.localhost:${port}`, `${site.subdomain}--v1.localhost:${port}`];
    hosts = [
      ...labelled(open.site),
      `${subdomain}--v2.localhost:${port}`,
      `${subdomain}--v3.localhost:${port}`,
      `${subdomain}--v0.localhost:${port}`,
      `${subdomain.toUpperCase()}.LOCALHOST:${port}`,
      `${subdomain}.localhost.:${port}`,
      `${subdomain}.localhost`,
      ...labelled(hidden.site),
      ...labelled(locked.site),
      ...labelled(gone.site),
      `localhost:${port}`,
      `--v1.localhost:${port}`,
      `${subdomain}--v99999999999999999999.localhost:${port}`,
      `x.${subdomain}.localhost:${port}`,
      `${subdomain}.localhost:99999`,
      "[::1]",
      "",
      `user@${subdomain}.localhost`,
    ];
  });
  afterAll(() => server.close());

  const leaked = (bytes: Buffer | string) => {
    const text = typeof bytes === "string" ? bytes : bytes.toString("latin1");
    return Object.entries(secrets)
      .filter(([, s]) => text.includes(s.fingerprint))
      .map(([name]) => name);
  };

  it("answers thousands of random requests through node's client without a 5xx or a secret", { timeout: 60_000 }, async () => {
    const { next, pick, int } = generator(20260);
    const pieces = [
      "..",
      "%2e%2e",
      "%2E%2e",
      ".%2e",
      "%2f",
      "%5c",
      "\\",
      "//",
      "%00",
      "%c0%ae",
      "%c0%af",
      "%ff",
      "%e2%80%a4",
      "%ef%bc%8e",
      "%252e%252e",
      "....//",
      ";",
      "%3b",
      "~",
      ".",
      "./",
      "index.html",
      "INDEX.HTML",
      "index.html%00.png",
      "index.html%20",
      "docs",
      "about",
      "old",
      "go",
      "blog",
      "2026",
      "é",
      "e%CC%81",
      "?",
      "#",
      "%",
      "a".repeat(300),
      "_redirects",
      "_headers",
      "200.html",
      "404.html",
      "photo.bin",
      "big.bin",
      "app.js",
      "secret.html",
      "draft.html",
      "secret.txt",
      "blobs",
      "db",
      "etc",
      "passwd",
      ".berth",
      ".berth/password",
      "_share",
      sharePath.slice(1),
      server.ctx.env.dataDir.slice(1),
      "..%2f..%2f..%2f",
      "%2e%2e%5c",
    ];
    const ranges = () =>
      pick([
        `bytes=${int(5000) - 100}-${int(5000)}`,
        `bytes=${int(4000)}-`,
        `bytes=-${int(4000)}`,
        `bytes=0-0,${int(3000)}-${int(3000)},-1`,
        `bytes=${"0-1,".repeat(20)}2-3`,
        "bytes=-0",
        "bytes=abc",
        "items=0-1",
        "bytes=99999999999999999999-",
        "bytes=0-99999999999999999999",
        "bytes= 1 - 2",
        "",
      ]);
    // Real paths, alone or after traversal pieces, so that many requests reach a file.
    const real = [
      "index.html",
      "about",
      "docs/",
      "app.js",
      "photo.bin",
      "big.bin",
      "old",
      "blog/2026/hello",
      "secret.html",
      "draft.html",
      sharePath.slice(1),
    ];
    const statuses = new Map<number, number>();
    for (let i = 0; i < 3000; i++) {
      const parts = Array.from({ length: int(4) }, () => pick(pieces));
      if (parts.length === 0 || next() < 0.4) parts.push(pick(real));
      const rawPath = "/" + parts.join(next() < 0.5 ? "/" : "");
      const host = next() < 0.7 ? publicHost : pick(hosts);
      const method = next() < 0.85 ? pick(["GET", "GET", "GET", "HEAD"]) : pick(["POST", "PUT", "DELETE", "OPTIONS", "PATCH"]);
      const headers: Record<string, string> = {};
      if (next() < 0.35) headers.range = ranges();
      if (next() < 0.3) headers["accept-encoding"] = pick(["br", "gzip;q=0", "*", "identity;q=0", "", "br;q=0.5, gzip;q=1", "x".repeat(500)]);
      if (next() < 0.2) headers["if-none-match"] = pick(["*", '"x"', "W/", ",,,", '"' + "a".repeat(64) + '"']);
      if (next() < 0.1) headers["if-range"] = pick(['"x"', "Thu, 01 Jan 1970 00:00:00 GMT", "garbage"]);
      if (next() < 0.1) headers["if-modified-since"] = pick(["Thu, 01 Jan 2099 00:00:00 GMT", "yesterday", ""]);
      if (next() < 0.1)
        headers.cookie = pick(["berth_site_pass=a.b.c.d", "berth_share=" + "x".repeat(300), "a=b; ".repeat(100), "berth_site_pass=;"]);
      const body =
        method === "POST" || method === "PUT" || method === "PATCH" ? pick(["password=guess&next=/", "x".repeat(int(3000)), ""]) : undefined;
      if (body !== undefined) headers["content-type"] = pick(["application/x-www-form-urlencoded", "text/plain", "multipart/form-data"]);
      let response: EdgeResponse | undefined;
      try {
        response = await server.edge.get(host, encodeURI(rawPath).replace(/%25/g, "%"), { method, headers, ...(body !== undefined ? { body } : {}) });
      } catch {
        // node's client refuses to send some of these (a bad header value): nothing reached the server.
        continue;
      }
      const label = `${method} ${host} ${rawPath} ${JSON.stringify(headers)}`;
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      expect(response.status, label).toBeLessThan(500);
      expect(leaked(response.body), label).toEqual([]);
      expect(leaked(JSON.stringify(response.headers)), label).toEqual([]);
      if (response.status === 200 || response.status === 206) expect(response.headers["x-content-type-options"], label).toBe("nosniff");
    }
    // The run reached the interesting answers, so it is not passing by refusing everything.
    for (const status of [200, 206, 301, 302, 401, 403, 404, 416]) expect(statuses.get(status) ?? 0, `status ${status}`).toBeGreaterThan(0);
  });

  it("answers a valid range exactly: 206 with the bytes, 416 past the end, the whole file for an invalid one", async () => {
    const { pick, int } = generator(7);
    for (const [name, file] of [
      ["photo.bin", PHOTO],
      ["big.bin", BIG],
    ] as const) {
      const size = file.length;
      for (let i = 0; i < 150; i++) {
        const a = int(size + 200);
        const b = int(size + 200);
        const kind = pick(["closed", "open", "suffix"]);
        const header = kind === "closed" ? `bytes=${a}-${b}` : kind === "open" ? `bytes=${a}-` : `bytes=-${a}`;
        // The model of RFC 9110 §14 the edge must follow (server/edge/range.ts).
        let status = 206;
        let start = a;
        const end = kind === "closed" ? Math.min(b, size - 1) : size - 1;
        if (kind === "suffix") [status, start] = a === 0 ? [416, 0] : [206, Math.max(0, size - a)];
        else if (kind === "closed" && b < a) status = 200;
        else if (a >= size) status = 416;
        const response = await server.edge.get(publicHost, `/${name}`, { headers: { range: header } });
        expect(response.status, `${name} ${header}`).toBe(status);
        if (status === 206) {
          expect(response.headers["content-range"], header).toBe(`bytes ${start}-${end}/${size}`);
          expect(response.body.equals(file.subarray(start, end + 1)), header).toBe(true);
        } else if (status === 416) {
          expect(response.headers["content-range"], header).toBe(`bytes */${size}`);
        } else {
          expect(response.body.length, header).toBe(size);
        }
      }
    }
  });

  it("answers malformed requests written as raw bytes with a 4xx or a closed connection, never a 5xx or a secret", async () => {
    const { next, pick, int } = generator(99);
    const port = await server.edge.port();
    const targets = [
      "/",
      "/index.html",
      "*",
      "",
      "//",
      "/..",
      "/%2e%2e/%2e%2e/secret.txt",
      "/../../../../etc/passwd",
      `http://${hiddenHost}/secret.html`,
      `http://${publicHost}/photo.bin`,
      "http://[::1]/",
      "/\u00e9",
      "/a b",
      "/\x00",
      `/${"a".repeat(9000)}`,
      "/index.html?x=%",
      "/draft.html",
      "/secret.html",
      `/${server.ctx.env.dataDir}/secret.txt`,
      sharePath,
    ];
    const lines = [
      () => `Host: ${pick([publicHost, ...hosts])}`,
      () => `Host: ${publicHost}\r\nHost: ${hiddenHost}`,
      () => `Host : ${publicHost}`,
      () => `Host:\t${publicHost}\t`,
      () => `Range: ${pick(["bytes=0-10", "bytes=-5", "bytes=5000-", "bytes=0-1,0-1,0-1"])}`,
      () => "X-Folded: a\r\n b",
      () => "No colon here",
      () => `X-Long: ${"x".repeat(int(20000))}`,
      () => "Connection: keep-alive, Upgrade\r\nUpgrade: websocket",
      () => "Expect: 100-continue",
      () => `Cookie: berth_site_pass=${"a.".repeat(int(200))}`,
      () => "X-Nul: a\x00b",
      () => "Accept-Encoding: br, gzip",
      () => "If-None-Match: *",
    ];
    // Framing and the body that goes with it, always complete or wrong at once, so the server
    // never has reason to wait for more bytes.
    const framings: Array<[string | undefined, string]> = [
      [undefined, ""],
      [undefined, ""],
      [undefined, ""],
      ["Content-Length: 5", "hello"],
      ["Content-Length: 0", ""],
      ["Content-Length: -1", ""],
      ["Content-Length: 1e3", ""],
      ["Content-Length: 5\r\nContent-Length: 6", "hello!"],
      ["Transfer-Encoding: chunked", "5\r\nhello\r\n0\r\n\r\n"],
      ["Transfer-Encoding: chunked", "zz\r\nxx\r\n"],
      ["Transfer-Encoding: chunked\r\nContent-Length: 5", "0\r\n\r\n"],
      ["Transfer-Encoding: gzip, chunked", "0\r\n\r\n"],
      ["Transfer-Encoding: identity", ""],
    ];
    const requests: Buffer[] = [];
    for (let i = 0; i < 400; i++) {
      const method = next() < 0.6 ? pick(["GET", "HEAD"]) : pick(["POST", "PUT", "DELETE", "OPTIONS", "TRACE", "CONNECT", "PRI", "G\tET", "get", ""]);
      const version = next() < 0.7 ? "HTTP/1.1" : pick(["HTTP/1.0", "HTTP/2.0", "HTTP/1.1 extra", "HTTP/9", ""]);
      const eol = next() < 0.9 ? "\r\n" : "\n";
      const head = [`${method} ${pick(targets)} ${version}`.trimEnd()];
      for (let n = int(4); n >= 0; n--) head.push(pick(lines)());
      if (!head.some((line) => /^Host/i.test(line)) && next() < 0.7) head.push(`Host: ${publicHost}`);
      const [framing, body] = pick(framings);
      if (framing) head.push(framing);
      head.push("Connection: close");
      requests.push(Buffer.from(head.join(eol) + eol + eol + body, "latin1"));
    }
    const outcomes = new Map<string, number>();
    const send = async (bytes: Buffer) => {
      const connection = await RawConnection.open(port);
      try {
        connection.write(bytes);
        const response = await connection.response({ timeoutMs: 3000, bodiless: bytes.subarray(0, 5).toString() === "HEAD " });
        const label = JSON.stringify(bytes.toString("latin1").slice(0, 300));
        expect(response.status, label).toBeLessThan(500);
        expect(response.status, label).toBeGreaterThanOrEqual(100);
        expect(leaked(response.head), label).toEqual([]);
        expect(leaked(response.body), label).toEqual([]);
        return String(response.status);
      } catch (error) {
        // A closed connection without an answer is a refusal too; anything else is a failure.
        if (error instanceof Error && error.message.startsWith("connection closed")) return "closed";
        throw new Error(`${(error as Error).message} for ${JSON.stringify(bytes.toString("latin1").slice(0, 300))}`, { cause: error });
      } finally {
        connection.close();
      }
    };
    for (let i = 0; i < requests.length; i += 25) {
      for (const outcome of await Promise.all(requests.slice(i, i + 25).map(send))) outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    }
    expect(outcomes.get("400") ?? 0).toBeGreaterThan(0);
    expect((outcomes.get("200") ?? 0) + (outcomes.get("206") ?? 0)).toBeGreaterThan(0);
  });
});
